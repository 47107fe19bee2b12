--[[
  Record the RFQ: one step for the requisition, its claim table entries and the tracking record.
  KEYS[1] claim table  KEYS[2] record  KEYS[3] RFQ tracking hash  KEYS[4] tracked RFQ set
  KEYS[5] the RFQs posted lately (zset rfqId -> ms recorded; the walk's check that the lists show them, kept 10 min)
  ARGV[1] requisition id  ARGV[2] rfqId  ARGV[3] positions JSON  ARGV[4] lines JSON  ARGV[5] how
  ARGV[6] requisition key  ARGV[7] source file  ARGV[8] profile  ARGV[9] title
  ARGV[10..] external_ids to release (claimed by the requisition but not in an adopted RFQ)
  Returns {'recorded'} | {'same'} | {'duplicate', existingRfqId}
]]
--- @include "includes/clock"
local rec = KEYS[2]
if redis.call('HGET', rec, 'state') == 'created' then
  local existing = redis.call('HGET', rec, 'rfqId')
  if existing == ARGV[2] then return {'same'} end
  return {'duplicate', existing}
end
redis.call('HSET', rec, 'state', 'created', 'rfqId', ARGV[2], 'positions', ARGV[3], 'lines', ARGV[4], 'how', ARGV[5],
  'createdAt', tostring(now), 'leaseUntil', '0')
redis.call('HDEL', rec, 'reason', 'rejectedAt')
local kept = {}
for e, _ in pairs(cjson.decode(ARGV[3])) do kept[e] = true end
local claimed = {}
for i = 10, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
local old = redis.call('HGET', rec, 'claimed')
if old then
  for _, e in ipairs(cjson.decode(old)) do if kept[e] then claimed[#claimed + 1] = e end end
  redis.call('HSET', rec, 'claimed', cjson.encode(claimed))
end
redis.call('HSETNX', KEYS[3], 'requisitionKey', ARGV[6])
redis.call('HSETNX', KEYS[3], 'requisitionId', ARGV[1])
redis.call('HSETNX', KEYS[3], 'sourceFile', ARGV[7])
redis.call('HSETNX', KEYS[3], 'profile', ARGV[8])
redis.call('HSETNX', KEYS[3], 'title', ARGV[9])
redis.call('HSETNX', KEYS[3], 'createdAt', tostring(now))
redis.call('SADD', KEYS[4], ARGV[2])
if ARGV[5] == 'posted' then
  redis.call('ZADD', KEYS[5], now, ARGV[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now - 600000)
end
return {'recorded'}
