--[[
  Change a file ledger entry only while it belongs to the given owner (src/intake/file-ledger.ts).
  KEYS[1] ledger hash
  ARGV[1] sha256, ARGV[2] owner, ARGV[3] new JSON or '' to delete, ARGV[4] required state or ''
  Returns 1 when changed; 0 no entry, -1 another owner (or an unreadable entry), -2 not in the required state.
]]
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local ok, e = pcall(cjson.decode, cur)
if not ok or type(e) ~= 'table' or e.owner ~= ARGV[2] then return -1 end
if ARGV[4] ~= '' and e.state ~= ARGV[4] then return -2 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
