--[[
  A person decided to post again (`rfq-sync resolve --post`): undecided -> pending, known that nothing of ours is
  at the service.
  KEYS[1] record
  Returns 1 when it was undecided.
]]
if redis.call('HGET', KEYS[1], 'state') ~= 'undecided' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'leaseUntil', '0')
redis.call('HDEL', KEYS[1], 'reason', 'token')
return 1
