--[[
  The attempt is over without an answer that settles it.
  KEYS[1] record
  ARGV[1] token, ARGV[2] one of
    'pending'  - this attempt's post was refused (429, 401/403): nothing was created, provided nothing existed
                 before it either (`reconciled` = this token: it came from pending or reconciled and found nothing);
    'creating' - the post may have created the RFQ (5xx, reset, time-out): the next attempt reconciles;
    'release'  - failed before posting: state unchanged.
  Always drops the lease so the next attempt need not wait for it.
  Returns 0 when the attempt no longer holds it, else 1.
]]
local state = redis.call('HGET', KEYS[1], 'state')
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or (state ~= 'pending' and state ~= 'creating') then return 0 end
if ARGV[2] == 'creating' then
  redis.call('HSET', KEYS[1], 'state', 'creating')
  redis.call('HDEL', KEYS[1], 'reconciled')
elseif ARGV[2] == 'pending' and redis.call('HGET', KEYS[1], 'reconciled') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'state', 'pending')
end
redis.call('HSET', KEYS[1], 'leaseUntil', '0')
return 1
