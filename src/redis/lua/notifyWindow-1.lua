--[[
  Open (or join) the digest window of a notification route: the marker holds the window's start while it lasts.
  KEYS[1] the route's window marker
  ARGV[1] the window's length, ms
  Returns {start, now}: the window's start and Redis's clock now, both ms.
]]
--- @include "includes/clock"
local start = redis.call('GET', KEYS[1])
if not start then
  start = string.format('%d', now)
  redis.call('SET', KEYS[1], start, 'PX', ARGV[1])
end
return {tonumber(start), now}
