--[[
  Claim the next re-check of a refused token, so that one worker of all makes it, on a back-off: after the n-th
  check the next is due min(base x 2^n, longest) ms later.
  KEYS[1] the auth pause hash
  ARGV[1] base ms (AUTH_CHECK_MS), ARGV[2] longest wait ms, ARGV[3] '1': claim even when not due (a person asked)
  Returns { n, nextCheckAt }: n the number of this check (1, 2, ...), 0 when the next is not due yet, -1 when
  nothing is paused.
]]
--- @include "includes/clock"
if redis.call('HEXISTS', KEYS[1], 'reason') == 0 then return { -1, 0 } end
local due = tonumber(redis.call('HGET', KEYS[1], 'nextCheckAt') or '0') or 0
if ARGV[3] ~= '1' and now < due then return { 0, due } end
local n = (tonumber(redis.call('HGET', KEYS[1], 'checks') or '0') or 0) + 1
local nextAt = now + math.min(tonumber(ARGV[1]) * 2 ^ n, tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'checks', n, 'nextCheckAt', string.format('%.0f', nextAt))
return { n, nextAt }
