--[[
  Reserve one send slot of the shared rate limit (src/creation/rate-limiter.ts), on Redis's clock.
  ratePermit(now, windowKey, holdKey, tatKey, limit, windowMs, maxAhead, member) returns wait, delay:
    wait > 0  nothing reserved, ask again in `wait` ms (a Retry-After hold-off, or the next slot is more than
              `maxAhead` ms away);
    delay     the slot reserved is `delay` ms from now: sleep that long, then call.
  Keys: windowKey the slots sorted set (member -> slot ms), holdKey the hold-off key (PX = Retry-After), tatKey the
  next free slot. Shared by rateAcquire-3 and claim-7, which reserves a slot (maxAhead 0: only one free now) in the
  same step as the claim, so the hot path costs one round trip.
  A priority caller (a read a waiting requisition or comparison depends on; its member starts with `p:`) passes
  the queue: its slot is the first one the slots already taken (at or before now) leave free, whatever later slots
  others reserved; those others confirm when they wake (rateConfirm-2 counts the priority slots ahead of them) and
  reserve again if it no longer fits.
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
    local priority = string.sub(member, 1, 2) == 'p:'
    if priority then
      slot = now
      local taken = redis.call('ZCOUNT', windowKey, '-inf', now)
      if taken >= limit then
        local oldest = redis.call('ZRANGEBYSCORE', windowKey, '-inf', now, 'WITHSCORES', 'LIMIT', taken - limit, 1)
        slot = tonumber(oldest[2]) + window
      end
    elseif redis.call('ZCARD', windowKey) >= limit then
      local back = redis.call('ZRANGE', windowKey, -limit, -limit, 'WITHSCORES')
      if back[2] and slot < tonumber(back[2]) + window then slot = tonumber(back[2]) + window end
    end
    if slot - now > tonumber(maxAheadArg) then
      wait = math.max(1, math.ceil(slot - now - tonumber(maxAheadArg)))
    else
      delay = math.ceil(slot - now)
      redis.call('ZADD', windowKey, slot, member)
      redis.call('PEXPIRE', windowKey, window * 3)
      if not priority then redis.call('SET', tatKey, tostring(slot + window / limit), 'PX', window * 3) end
    end
  end
  return wait, delay
end
