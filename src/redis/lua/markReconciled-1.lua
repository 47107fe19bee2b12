--[[
  Mark that THIS attempt reconciled and found nothing.
  KEYS[1] record
  ARGV[1] token
  Returns 1, or 0 when the attempt no longer holds the requisition.
]]
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'reconciled', ARGV[1])
return 1
