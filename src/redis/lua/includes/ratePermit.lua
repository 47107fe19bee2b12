--[[
  Reserve one send slot of the shared rate limit (src/creation/rate-limiter.ts), on Redis's clock.
  ratePermit(now, windowKey, holdKey, tatKey, limit, windowMs, maxAhead, member) returns wait, delay:
    wait > 0  nothing reserved, ask again in `wait` ms (a Retry-After hold-off, or the next slot is more than
              `maxAhead` ms away);
    delay     the slot reserved is `delay` ms from now: sleep that long, then call.
  Keys: windowKey the slots sorted set (member -> slot ms), holdKey the hold-off key (PX = Retry-After), tatKey the
  next free slot. Shared by rateAcquire-3 and claim-7, which reserves a slot (maxAhead 0: only one free now) in the
  same step as the claim, so the hot path costs one round trip.
  Priority (a read that a waiting requisition or comparison depends on; its member starts with `p:`): the slot is
  reserved as any other (at the end of the schedule), then handed to the first caller without priority still
  waiting for its slot, whose slot the priority caller takes: those waiting move one slot back each (rateConfirm-2
  tells a sleeper whose slot moved to sleep on). The slots of the schedule are the same as without priority, so the
  bound holds the same; only their order changes.
]]
--- Give the priority member the first queued slot of a caller without priority; those move back one slot each.
local function jumpQueue(now, windowKey, member, slot)
  local queued = redis.call('ZRANGEBYSCORE', windowKey, '(' .. tostring(now), '+inf', 'WITHSCORES')
  local members, times = {}, {}
  for i = 1, #queued, 2 do
    if string.sub(queued[i], 1, 2) ~= 'p:' then
      members[#members + 1] = queued[i]
      times[#times + 1] = tonumber(queued[i + 1])
    end
  end
  if #members == 0 or times[1] >= slot then return slot end
  local first = times[1]
  times[1] = slot
  table.sort(times)
  for j = 1, #members do redis.call('ZADD', windowKey, times[j], members[j]) end
  return first
end

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
      local mine = slot
      if string.sub(member, 1, 2) == 'p:' then mine = jumpQueue(now, windowKey, member, slot) end
      delay = math.ceil(mine - now)
      redis.call('ZADD', windowKey, mine, member)
      redis.call('PEXPIRE', windowKey, window * 3)
      redis.call('SET', tatKey, tostring(slot + window / limit), 'PX', window * 3)
    end
  end
  return wait, delay
end
