--[[
  Renew a lock's lease, only by its holder.
  KEYS[1] the lock (its value is the holder's token)
  ARGV[1] token, ARGV[2] lease ms
  Returns 1 when renewed, 0 when the lock is not (or no longer) the holder's.
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
