--[[
  Reserve one send slot of the shared rate limit (src/creation/rate-limiter.ts), on Redis's clock.
  ratePermit(now, windowKey, holdKey, tatKey, limit, windowMs, maxAhead, member) returns wait, delay:
    wait > 0  nothing reserved, ask again in `wait` ms (a Retry-After hold-off, or the next slot is more than
              `maxAhead` ms away);
    delay     the slot reserved is `delay` ms from now: sleep that long, then call.
  Keys: windowKey the slots sorted set (member -> slot ms), holdKey the hold-off key (PX = Retry-After), tatKey the
  next free slot. Shared by rateAcquire-3 and claim-7, which reserves a slot (maxAhead 0: only one free now) in the
  same step as the claim, so the hot path costs one round trip.
]]
local function ratePermit(now, windowKey, holdKey, tatKey, limitArg, windowArg, maxAheadArg, member)
  local wait = redis.call('PTTL', holdKey)
  local delay = 0
  if wait <= 0 then
    wait = 0
    local window = tonumber(windowArg)
    local limit = tonumber(limitArg)
    local slot = tonumber(redis.call('GET', tatKey) or '0') or 0
    if slot < now then slot = now end
    redis.call('ZREMRANGEBYSCORE', windowKey, '-inf', now - window)
    if redis.call('ZCARD', windowKey) >= limit then
      local back = redis.call('ZRANGE', windowKey, -limit, -limit, 'WITHSCORES')
      if back[2] and slot < tonumber(back[2]) + window then slot = tonumber(back[2]) + window end
    end
    if slot - now > tonumber(maxAheadArg) then
      wait = math.max(1, math.ceil(slot - now - tonumber(maxAheadArg)))
    else
      delay = math.ceil(slot - now)
      redis.call('ZADD', windowKey, slot, member)
      redis.call('PEXPIRE', windowKey, window * 3)
      redis.call('SET', tatKey, tostring(slot + window / limit), 'PX', window * 3)
    end
  end
  return wait, delay
end
