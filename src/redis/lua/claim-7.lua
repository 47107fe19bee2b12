--[[
  Claim a requisition's external_ids (src/creation/idempotency-store.ts).
  KEYS[1] claim table (hash external_id -> requisition id)
  KEYS[2] the requisition's record (hash)
  KEYS[3] requisition index (zset id -> first-seen ms)
  KEYS[4] rate-limit window, KEYS[5] Retry-After hold-off, KEYS[6] rate schedule (rate-limiter.ts)
  KEYS[7] the claimant index of the body's title and line count (includes/notePosted)
  ARGV[1] requisition id      ARGV[2] attempt token     ARGV[3] lease ms         ARGV[4] content hash
  ARGV[5] key                 ARGV[6] profile           ARGV[7] source file      ARGV[8] title
  ARGV[9] calls per window ('' = take no permit)  ARGV[10] window ms  ARGV[11] permit member  ARGV[12] post lease ms
  ARGV[13] fingerprint of the body to post   ARGV[14] the body (PostedBody JSON)   ARGV[15..] external_ids
  When nothing needs reconciling and a permit is free, the same step takes the permit and marks the requisition
  `creating` (as beginPost-2 does), the post lease running from now (postUntil: the POST ends before it): the caller
  posts at once.
  Returns {'created', rfqId} | {'rejected', reason} | {'undecided', reason} | {'busy', waitMs} | {'conflict', id1, holder1, ...}
        | {'claimed', previousState, claimedJson} | {'posting', previousState, claimedJson}
  (`claimed` without a permit: the caller takes one through the rate limiter, which waits for the next slot)
]]
--- @include "includes/clock"
--- @include "includes/ratePermit"
--- @include "includes/claimConflicts"
--- @include "includes/notePosted"
local rec = KEYS[2]
local state = redis.call('HGET', rec, 'state')
if state == 'created' then return {'created', redis.call('HGET', rec, 'rfqId')} end
if state == 'undecided' then return {'undecided', redis.call('HGET', rec, 'reason') or ''} end
if state == 'rejected' and redis.call('HGET', rec, 'contentHash') == ARGV[4] then
  return {'rejected', redis.call('HGET', rec, 'reason') or ''}
end
if state == 'creating' or state == 'pending' then
  local lease = tonumber(redis.call('HGET', rec, 'leaseUntil') or '0') or 0
  if lease > now and redis.call('HGET', rec, 'token') ~= ARGV[2] then return {'busy', tostring(lease - now)} end
end
local conflicts = claimConflicts(KEYS[1], ARGV[1], 15)
if conflicts then return conflicts end
local claimed = {}
local seen = {}
local old = redis.call('HGET', rec, 'claimed')
if old then
  for _, e in ipairs(cjson.decode(old)) do
    if not seen[e] then seen[e] = true; claimed[#claimed + 1] = e end
  end
end
for i = 15, #ARGV do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[1])
  if not seen[ARGV[i]] then seen[ARGV[i]] = true; claimed[#claimed + 1] = ARGV[i] end
end
local claimedJson = cjson.encode(claimed)
-- a rejected requisition re-exported with other content starts afresh: nothing was posted for it
local previous = state
if state == 'rejected' then previous = 'pending' end
redis.call('HSET', rec, 'state', (previous == 'creating') and 'creating' or 'pending',
  'token', ARGV[2], 'leaseUntil', tostring(now + tonumber(ARGV[3])), 'attemptAt', tostring(now),
  'contentHash', ARGV[4], 'key', ARGV[5], 'profile', ARGV[6], 'sourceFile', ARGV[7], 'title', ARGV[8],
  'claimed', claimedJson)
redis.call('HDEL', rec, 'reason', 'rejectedAt')
redis.call('HINCRBY', rec, 'attempts', 1)
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[1])
if ARGV[9] == '' or ARGV[14] == '' or previous == 'creating' then return {'claimed', previous or '', claimedJson} end
if ratePermit(now, KEYS[4], KEYS[5], KEYS[6], ARGV[9], ARGV[10], '0', ARGV[11]) > 0 then
  return {'claimed', previous or '', claimedJson}
end
local postUntil = tostring(now + tonumber(ARGV[12]))
redis.call('HSET', rec, 'state', 'creating', 'reconciled', ARGV[2], 'leaseUntil', postUntil, 'postUntil', postUntil)
notePosted(rec, KEYS[7], ARGV[1], ARGV[13], ARGV[14])
redis.call('HSETNX', rec, 'firstPostAt', tostring(now))
return {'posting', previous or '', claimedJson}
