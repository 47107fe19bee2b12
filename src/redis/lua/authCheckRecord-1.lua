--[[
  Keep what a re-check of a refused token got, only while the pause it was made for lasts.
  KEYS[1] the auth pause hash
  ARGV[1] the result in words
  Returns 1 when kept, 0 when the pause was lifted meanwhile.
]]
--- @include "includes/clock"
if redis.call('HEXISTS', KEYS[1], 'reason') == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastCheckAt', string.format('%.0f', now), 'lastCheckResult', ARGV[1])
return 1
