-- Releases one hold of an owner; the last hold deletes the lock and wakes the waiters.
-- KEYS[1] lock hash, KEYS[2] release channel, KEYS[3] latch of this release request
-- ARGV[1] owner id, ARGV[2] lease ms to keep after a partial release,
-- ARGV[3] latch lifetime ms (the client's command timeout)
-- returns the holds left (0 = lock free), or -1 when the owner held nothing (lost)
local applied = redis.call('get', KEYS[3])
if applied then
    -- The client retried a request that was applied already: report the same outcome again.
    return tonumber(applied)
end
local held = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
if not held then
    return -1
end
local left = held - 1
if left > 0 then
    redis.call('hincrby', KEYS[1], ARGV[1], -1)
    redis.call('pexpire', KEYS[1], ARGV[2])
else
    redis.call('del', KEYS[1])
    redis.call('publish', KEYS[2], '*')
end
redis.call('set', KEYS[3], left, 'px', ARGV[3])
return left
