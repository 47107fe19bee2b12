--[[
  Reserve one send slot of the shared rate limit (src/account/rate-limiter.ts), on Redis's clock.
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
  tells a sleeper whose slot moved to sleep on). Its `maxAhead` counts to the slot it takes, not to the end of the
  schedule. The slots of the schedule are the same as without priority, so the bound holds the same; only their
  order changes.
]]
--- The first queued slot of a caller without priority, and who holds it (nil when none is queued before `slot`).
local function firstQueued(now, windowKey, slot)
  local queued = redis.call('ZRANGEBYSCORE', windowKey, '(' .. tostring(now), '+inf', 'WITHSCORES')
  local members, times = {}, {}
  for i = 1, #queued, 2 do
    if string.sub(queued[i], 1, 2) ~= 'p:' then
      members[#members + 1] = queued[i]
      times[#times + 1] = tonumber(queued[i + 1])
    end
  end
  if #members == 0 or times[1] >= slot then return nil end
  return members, times
end

--- The priority caller takes the first of `times`; those callers move back one slot each (`times` re-sorted).
local function jumpQueue(times, slot)
  local first = times[1]
  times[1] = slot
  table.sort(times)
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
    -- a priority read is held to the slot it takes, not to the end of the schedule: its wait must not grow with
    -- the queue in front of it (listing pages may hold slots up to 30 s ahead)
    local mine, members, times = slot, nil, nil
    if string.sub(member, 1, 2) == 'p:' then
      members, times = firstQueued(now, windowKey, slot)
      if members then mine = jumpQueue(times, slot) end
    end
    if mine - now > tonumber(maxAheadArg) then
      wait = math.max(1, math.ceil(mine - now - tonumber(maxAheadArg)))
    else
      if members then
        for j = 1, #members do redis.call('ZADD', windowKey, times[j], members[j]) end
      end
      delay = math.ceil(mine - now)
      redis.call('ZADD', windowKey, mine, member)
      redis.call('PEXPIRE', windowKey, window * 3)
      redis.call('SET', tatKey, tostring(slot + window / limit), 'PX', window * 3)
    end
  end
  return wait, delay
end
