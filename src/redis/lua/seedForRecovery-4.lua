--[[
  Seed a requisition for `rfq-sync recover` (Redis lost its state; the requisition's RFQ may exist): only where no
  record exists, as `creating` with its external_ids claimed and the body it would post noted as posted
  (includes/notePosted), so the next attempt reconciles (walk, match by external_id or by that body) before any post.
  KEYS[1] claim table, KEYS[2] record, KEYS[3] requisition index, KEYS[4] the claimant index of the body
  ARGV[1] requisition id, ARGV[2] content hash, ARGV[3] key, ARGV[4] profile, ARGV[5] source file, ARGV[6] title,
  ARGV[7] fingerprint, ARGV[8] the body (PostedBody JSON), ARGV[9..] external_ids
  Returns {'seeded'} | {'exists', state} | {'conflict', external_id, holder, ...}
]]
--- @include "includes/clock"
--- @include "includes/claimConflicts"
--- @include "includes/notePosted"
local state = redis.call('HGET', KEYS[2], 'state')
if state then return {'exists', state} end
local conflicts = claimConflicts(KEYS[1], ARGV[1], 9)
if conflicts then return conflicts end
local claimed = {}
for i = 9, #ARGV do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[1])
  claimed[#claimed + 1] = ARGV[i]
end
redis.call('HSET', KEYS[2], 'state', 'creating', 'leaseUntil', '0', 'attemptAt', tostring(now), 'contentHash', ARGV[2],
  'key', ARGV[3], 'profile', ARGV[4], 'sourceFile', ARGV[5], 'title', ARGV[6], 'claimed', cjson.encode(claimed),
  'recovered', tostring(now))
notePosted(KEYS[2], KEYS[4], ARGV[1], ARGV[7], ARGV[8])
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[1])
return {'seeded'}
