--[[
  Park a requisition whose reconcile is ambiguous: only from `creating` and only by the attempt holding it.
  KEYS[1] record
  ARGV[1] token, ARGV[2] reason
  Returns 1 when parked.
]]
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'creating' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'undecided', 'reason', ARGV[2], 'leaseUntil', '0')
return 1
