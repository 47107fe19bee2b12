--[[
  A webhook asks for a poll (src/tracking/poll/poll-wake.ts): at most one waiting, starts at least an interval apart.
  KEYS[1] when the last webhook poll was scheduled to start (ms)
  ARGV[1] the least interval between webhook polls, ms
  Returns {at, scheduled, now}: the start of the poll that covers this webhook; scheduled 1 when this call set it
  (the caller adds the job), 0 when one already waits (it starts at or after now); Redis's clock now, ms.
]]
--- @include "includes/clock"
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if last >= now then
  return {last, 0, now}
end
local at = math.max(now, last + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], string.format('%d', at), 'PX', at - now + tonumber(ARGV[1]) + 60000)
return {at, 1, now}
