--[[
  Reserve a send slot of the shared rate limit (src/account/rate-limiter.ts).
  KEYS[1] slots sorted set (member -> slot ms), KEYS[2] hold-off key (PX = Retry-After), KEYS[3] next free slot
  ARGV[1] limit per window, ARGV[2] window ms, ARGV[3] most ms ahead to reserve, ARGV[4] unique member
  Returns {wait, delay} (see includes/ratePermit.lua).
]]
--- @include "includes/clock"
--- @include "includes/ratePermit"
local wait, delay = ratePermit(now, KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return {wait, delay}
