--[[
  About to post: still ours? then mark `creating` (from here on the outcome may be ambiguous) with a fresh lease,
  and note the fingerprint of what is posted.
  KEYS[1] record
  ARGV[1] token, ARGV[2] lease ms, ARGV[3] fingerprint
  Returns 1, or 0 when another attempt took the requisition over.
]]
--- @include "includes/clock"
local state = redis.call('HGET', KEYS[1], 'state')
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or (state ~= 'pending' and state ~= 'creating') then return 0 end
-- from pending, nothing existed before this post: a refusal of it may go back to pending (see endAttempt-1)
if state == 'pending' then redis.call('HSET', KEYS[1], 'reconciled', ARGV[1]) end
redis.call('HSET', KEYS[1], 'state', 'creating', 'leaseUntil', tostring(now + tonumber(ARGV[2])))
local fps = redis.call('HGET', KEYS[1], 'postedFps') or ''
if not string.find(',' .. fps .. ',', ',' .. ARGV[3] .. ',', 1, true) then
  redis.call('HSET', KEYS[1], 'postedFps', (fps == '') and ARGV[3] or (fps .. ',' .. ARGV[3]))
end
redis.call('HSETNX', KEYS[1], 'firstPostAt', tostring(now))
return 1
