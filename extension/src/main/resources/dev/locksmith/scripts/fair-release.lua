-- Releases one hold of a fair lock; the last hold frees it and wakes only the head of the queue.
-- KEYS[1] lock hash, KEYS[2] release channel, KEYS[3] latch of this release request,
-- KEYS[4] queue, KEYS[5] queue deadlines
-- ARGV[1] owner id, ARGV[2] lease ms to keep after a partial release, ARGV[3] latch lifetime ms
-- returns the holds left (0 = lock free), or -1 when the owner held nothing (lost)
local applied = redis.call('get', KEYS[3])
if applied then
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
    local time = redis.call('time')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    for _, gone in ipairs(redis.call('zrangebyscore', KEYS[5], '-inf', now)) do
        redis.call('lrem', KEYS[4], 0, gone)
        redis.call('zrem', KEYS[5], gone)
    end
    -- The message names the next owner, so only that waiter asks Redis again.
    redis.call('publish', KEYS[2], redis.call('lindex', KEYS[4], 0) or '*')
end
redis.call('set', KEYS[3], left, 'px', ARGV[3])
return left
