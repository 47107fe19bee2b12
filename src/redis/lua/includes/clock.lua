--[[
  The prologue of every script that reads the time: `now`, Redis's own clock in ms (TIME), so host clocks do not
  matter.
]]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
