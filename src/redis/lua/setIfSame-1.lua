--[[
  Set a string key only when it still holds what was read (a compare-and-set: the dialect store's learns,
  src/account/dialect-store.ts, so two workers learning at once both keep what they learned).
  KEYS[1] the key
  ARGV[1] the value read ('' when the key was absent), ARGV[2] the new value
  Returns 1 when set, 0 when the key changed since it was read.
]]
local now = redis.call('GET', KEYS[1])
if (now or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
