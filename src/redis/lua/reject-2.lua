--[[
  Permanent refusal.
  KEYS[1] record  KEYS[2] requisition index
  ARGV[1] requisition id  ARGV[2] token ('' when nothing was claimed)  ARGV[3] reason  ARGV[4] content hash
  ARGV[5] key  ARGV[6] profile  ARGV[7] source file  ARGV[8] title
  Never overrides `created` or `undecided` (an RFQ may exist), nor an attempt another worker holds.
  Returns 1 when written.
]]
--- @include "includes/clock"
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'created' or state == 'undecided' then return 0 end
if (state == 'creating' or state == 'pending') and redis.call('HGET', KEYS[1], 'token') ~= ARGV[2] then
  local lease = tonumber(redis.call('HGET', KEYS[1], 'leaseUntil') or '0') or 0
  if state == 'creating' or lease > now then return 0 end
end
redis.call('HSET', KEYS[1], 'state', 'rejected', 'reason', ARGV[3], 'rejectedAt', tostring(now), 'contentHash', ARGV[4],
  'key', ARGV[5], 'profile', ARGV[6], 'sourceFile', ARGV[7], 'title', ARGV[8], 'leaseUntil', '0')
redis.call('ZADD', KEYS[2], 'NX', now, ARGV[1])
return 1
