-- Releases one hold of a fair lock; the last hold frees it and wakes only the head of the queue.
-- KEYS[1] lock hash, KEYS[2] release channel, KEYS[3] latch of this release request,
-- KEYS[4] queue, KEYS[5] queue deadlines
-- ARGV[1] owner id, ARGV[2] lease ms to keep after a partial release, ARGV[3] latch lifetime ms,
-- ARGV[4] publish command (publish or spublish)
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
    local time = redis.call('time')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    for _, gone in ipairs(redis.call('zrangebyscore', KEYS[5], '-inf', now)) do
        redis.call('lrem', KEYS[4], 0, gone)
        redis.call('zrem', KEYS[5], gone)
    end
    -- The message names the next owner, so only that waiter asks Redis again.
    redis.call(ARGV[4], KEYS[2], redis.call('lindex', KEYS[4], 0) or '*')
end
return left
