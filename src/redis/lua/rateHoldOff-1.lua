--[[
  Hold every caller off (Retry-After): extends, never shortens, a hold-off already running.
  KEYS[1] hold-off key
  ARGV[1] ms
  Returns 1.
]]
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then redis.call('SET', KEYS[1], '1', 'PX', ms) end
return 1
