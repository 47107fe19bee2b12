--[[
  `failed retry`: forget a rejection's content hash so the same content may be claimed again. Only a record still
  rejected: one a re-export or another attempt has moved on is left alone.
  KEYS[1] record
  Returns 1 when cleared.
]]
if redis.call('HGET', KEYS[1], 'state') ~= 'rejected' then return 0 end
redis.call('HSET', KEYS[1], 'contentHash', 'cleared-for-retry')
return 1
