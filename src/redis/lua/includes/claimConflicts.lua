--[[
  External_ids already claimed by another requisition. claimConflicts(claimTable, requisitionId, firstArg) reads
  ARGV[firstArg..] and returns {'conflict', external_id, holder, ...}, or nil when none is held by another.
  Shared by claim-7 and seedForRecovery-4: both must refuse the same ids for the same reason.
]]
local function claimConflicts(claimTable, requisitionId, firstArg)
  local conflicts = {}
  for i = firstArg, #ARGV do
    local holder = redis.call('HGET', claimTable, ARGV[i])
    if holder and holder ~= requisitionId then
      conflicts[#conflicts + 1] = ARGV[i]
      conflicts[#conflicts + 1] = holder
    end
  end
  if #conflicts == 0 then return nil end
  table.insert(conflicts, 1, 'conflict')
  return conflicts
end
