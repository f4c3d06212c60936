-- Removes a lock whoever holds it and wakes every waiter.
-- KEYS[1] lock hash, KEYS[2] release channel
-- ARGV[1] publish command (publish or spublish)
-- returns 1 when a lock was removed, 0 when there was none
if redis.call('del', KEYS[1]) == 1 then
    redis.call(ARGV[1], KEYS[2], '*')
    return 1
end
return 0
