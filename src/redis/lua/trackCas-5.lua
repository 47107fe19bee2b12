--[[
  Compare-and-set of an RFQ's tracking record (src/rfqs/store.ts): writes it only when its `seq` is the one
  read, and moves the id between the state and flag sets in the same step.
  KEYS[1] rfq hash, KEYS[2] old state set, KEYS[3] new state set, KEYS[4] flagged set, KEYS[5] tracked set
  ARGV[1] expected seq, ARGV[2] new JSON (its seq already expected + 1), ARGV[3] rfq id, ARGV[4] '1' flagged / '0' not
  Returns 1 when written, 0 when the record changed meanwhile.
]]
local seq = redis.call('HGET', KEYS[1], 'seq') or '0'
if seq ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'track', ARGV[2], 'seq', tostring(tonumber(ARGV[1]) + 1))
if KEYS[2] ~= KEYS[3] then redis.call('SREM', KEYS[2], ARGV[3]) end
redis.call('SADD', KEYS[3], ARGV[3])
if ARGV[4] == '1' then redis.call('SADD', KEYS[4], ARGV[3]) else redis.call('SREM', KEYS[4], ARGV[3]) end
redis.call('SADD', KEYS[5], ARGV[3])
return 1
