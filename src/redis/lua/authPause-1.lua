--[[
  Record a refused token: the first caller pauses (and says so), the others join the pause already recorded.
  KEYS[1] the auth pause hash
  ARGV[1] reason, ARGV[2] fingerprint of the refused token, ARGV[3] ms until the first re-check of the same token
  Returns the time of the pause (ms, Redis's clock) when this call paused, 0 when a pause was already recorded.
]]
--- @include "includes/clock"
if redis.call('HSETNX', KEYS[1], 'reason', ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'since', string.format('%.0f', now), 'tokenFingerprint', ARGV[2],
  'nextCheckAt', string.format('%.0f', now + tonumber(ARGV[3])), 'checks', '0')
return now
