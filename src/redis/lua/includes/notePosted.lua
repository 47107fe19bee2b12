--[[
  Note a body as posted for a requisition (src/creation/fingerprint.ts PostedBody): kept on the record once per
  fingerprint (`posted`, a JSON array: the reconcile matches by it and takes an adopted RFQ's positions from it), and
  the requisition listed in the claimant index of the body's title and line count (a set), so a walk knows every
  requisition that may own an RFQ of that shape, registered or not.
  notePosted(record, indexKey, requisitionId, fp, bodyJson). Shared by claim-7, beginPost-2 and seedForRecovery-4.
]]
local function notePosted(rec, indexKey, requisitionId, fp, bodyJson)
  local posted = cjson.decode(redis.call('HGET', rec, 'posted') or '[]')
  for _, b in ipairs(posted) do if b.fp == fp then
    redis.call('SADD', indexKey, requisitionId)
    return
  end end
  posted[#posted + 1] = cjson.decode(bodyJson)
  redis.call('HSET', rec, 'posted', cjson.encode(posted))
  redis.call('SADD', indexKey, requisitionId)
end
