-- Releases one hold of an owner; the last hold deletes the lock and wakes the waiters.
-- KEYS[1] lock hash, KEYS[2] release channel, KEYS[3] latch of this release request
-- ARGV[1] owner id, ARGV[2] lease ms to keep after a partial release,
-- ARGV[3] latch lifetime ms (the client's command timeout), ARGV[4] publish command (publish or spublish)
-- returns the holds left (0 = lock free), or -1 when the owner held nothing (lost)
local held = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
local left = held and held - 1 or -1
-- Record this request's answer, unless it was applied already: then the client resent it after
-- a lost reply, and gets the first answer again instead of a second release.
local applied = redis.call('set', KEYS[3], left, 'nx', 'px', ARGV[3], 'get')
if applied then
    return tonumber(applied)
end
if left < 0 then
    return -1
end
if left > 0 then
    redis.call('hincrby', KEYS[1], ARGV[1], -1)
    redis.call('pexpire', KEYS[1], ARGV[2])
else
    redis.call('del', KEYS[1])
    redis.call(ARGV[4], KEYS[2], '*')
end
return left
