--[[
  Release a lock, only by its holder.
  KEYS[1] the lock (its value is the holder's token)
  ARGV[1] token
  Returns 1 when released, 0 when the lock is not (or no longer) the holder's.
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
