--[[
  A caller that slept until its slot confirms before calling: a sleeper woken late would otherwise call close to
  the slots after its own and crowd a 1 s window. Counts the slots in (now - window, now] - its own included - and
  moves its own to the actual time. A caller without priority also counts the priority slots reserved in the
  window ahead (members `p:`, includes/ratePermit.lua): a read that a wait depends on was promised one of them, and
  calling now must not make it break the limit; the caller steps back (reserves again) instead.
  KEYS[1] slots, KEYS[2] hold-off
  ARGV[1] limit, ARGV[2] window ms, ARGV[3] member
  Returns 0 (call now) or the ms to wait (then reserve again).
]]
--- @include "includes/clock"
local hold = redis.call('PTTL', KEYS[2])
if hold > 0 then
  redis.call('ZREM', KEYS[1], ARGV[3])
  return hold
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = redis.call('ZCOUNT', KEYS[1], '(' .. tostring(now - window), now)
if n > limit then
  local over = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. tostring(now - window), now, 'WITHSCORES', 'LIMIT', n - limit - 1, 1)
  redis.call('ZREM', KEYS[1], ARGV[3])
  return math.max(1, tonumber(over[2]) + window - now + 1)
end
if string.sub(ARGV[3], 1, 2) ~= 'p:' then
  local ahead = 0
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. tostring(now), now + window)) do
    if string.sub(m, 1, 2) == 'p:' then ahead = ahead + 1 end
  end
  if n + ahead > limit then
    redis.call('ZREM', KEYS[1], ARGV[3])
    return math.max(1, math.ceil(window / limit))
  end
end
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[3])
return 0
