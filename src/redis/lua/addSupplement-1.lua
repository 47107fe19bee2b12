--[[
  Note a supplementary requisition (lines a re-export added) on its requisition's record, once.
  KEYS[1] record
  ARGV[1] the supplementary requisition's id
  Returns 1 when added, 0 when it was there.
]]
local list = cjson.decode(redis.call('HGET', KEYS[1], 'supplements') or '[]')
for _, s in ipairs(list) do if s == ARGV[1] then return 0 end end
list[#list + 1] = ARGV[1]
redis.call('HSET', KEYS[1], 'supplements', cjson.encode(list))
return 1
