--[[
  Add an event to a message of its notification route, once: an event already in a message of the route is not
  added again (a retried job, two workers), and a message already taken for sending takes nothing more.
  KEYS[1] the event's mark for this route (kept as long as the messages)
  KEYS[2] the message's taken mark
  KEYS[3] the message's event list
  ARGV[1] the event (JSON), ARGV[2] how long marks and messages are kept, ms
  Returns 'added', 'dup' (already in a message of the route) or 'taken' (that message went: open another).
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 'dup' end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'taken' end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return 'added'
