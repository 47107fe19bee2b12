--[[
  Take a notification message for sending: no event joins it from now on, and the route's next event opens a new
  window. Taking it again (a retry) returns the same events.
  KEYS[1] the message's taken mark
  KEYS[2] the message's event list
  KEYS[3] the route's window marker
  ARGV[1] the window's start as its marker holds it ('' for a message that is no window), ARGV[2] how long kept, ms
  Returns the events of the message (JSON texts) in the order they were added.
]]
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
if ARGV[1] ~= '' and redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
return redis.call('LRANGE', KEYS[2], 0, -1)
