--[[
  Delete a file ledger entry only when unchanged since it was read (retention, src/outbox/retention.ts).
  KEYS[1] ledger hash
  ARGV[1] field (sha256), ARGV[2] the value read
  Returns 1 when deleted, else 0.
]]
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
