--[[
  A caller that slept until its slot confirms before calling: a sleeper woken late would otherwise call close to
  the slots after its own and crowd a 1 s window. Counts the slots in (now - window, now] - its own included - and
  moves its own to the actual time. A caller whose slot a priority caller took (includes/ratePermit.lua) finds its own
  slot moved later: it sleeps on until then, keeping its place.
  KEYS[1] slots, KEYS[2] hold-off
  ARGV[1] limit, ARGV[2] window ms, ARGV[3] member
  Returns 0 (call now), the ms to wait (then reserve again), or minus the ms to sleep before confirming again (its
  slot was moved).
]]
--- @include "includes/clock"
local hold = redis.call('PTTL', KEYS[2])
if hold > 0 then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return hold
end
local mine = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[3]) or '0') or 0
if mine > now then return -math.max(1, math.ceil(mine - now)) end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = redis.call('ZCOUNT', KEYS[1], '(' .. tostring(now - window), now)
if n > limit then
  local over = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. tostring(now - window), now, 'WITHSCORES', 'LIMIT', n - limit - 1, 1)
  redis.call('ZREM', KEYS[1], ARGV[3])
  return math.max(1, tonumber(over[2]) + window - now + 1)
end
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[3])
return 0
