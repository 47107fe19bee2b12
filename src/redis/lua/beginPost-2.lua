--[[
  About to post: still ours? then mark `creating` (from here on the outcome may be ambiguous) with a fresh lease
  (postUntil: the POST ends before it), and note the body posted (includes/notePosted).
  KEYS[1] record  KEYS[2] the claimant index of the body's title and line count
  ARGV[1] token, ARGV[2] lease ms, ARGV[3] fingerprint, ARGV[4] the body (PostedBody JSON), ARGV[5] requisition id
  Returns 1, or 0 when another attempt took the requisition over.
]]
--- @include "includes/clock"
--- @include "includes/notePosted"
local state = redis.call('HGET', KEYS[1], 'state')
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] or (state ~= 'pending' and state ~= 'creating') then return 0 end
-- from pending, nothing existed before this post: a refusal of it may go back to pending (see endAttempt-1)
if state == 'pending' then redis.call('HSET', KEYS[1], 'reconciled', ARGV[1]) end
local postUntil = tostring(now + tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'state', 'creating', 'leaseUntil', postUntil, 'postUntil', postUntil)
notePosted(KEYS[1], KEYS[2], ARGV[5], ARGV[3], ARGV[4])
redis.call('HSETNX', KEYS[1], 'firstPostAt', tostring(now))
return 1
