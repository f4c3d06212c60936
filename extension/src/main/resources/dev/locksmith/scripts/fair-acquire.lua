-- First acquisition of a fair lock: granted only to the head of the queue (or to anyone when
-- nobody queues); everyone else joins the queue, or refreshes its place in it.
-- KEYS[1] lock hash, KEYS[2] fencing counter, KEYS[3] release channel,
-- KEYS[4] queue (list of owner ids), KEYS[5] queue deadlines (sorted set: owner -> ms)
-- ARGV[1] owner id, ARGV[2] lease ms, ARGV[3] how long a waiter keeps its place without asking again, ms
-- returns {1, fencing token} when acquired, {0, ms until something may change} otherwise

-- The next fencing token. A missing counter (first use, a day after it was made, or a server
-- that lost its data) starts from the server clock in microseconds, so tokens keep increasing
-- across its loss as long as the clock does not go back and no name is taken twice in a
-- microsecond; that is also why the counter may simply expire a day after it was made.
local function next_token(counter)
    local token = redis.call('incr', counter)
    if token == 1 then
        local time = redis.call('time')
        redis.call('set', counter, time[1] .. string.format('%06d', tonumber(time[2])), 'px', 86400000)
        token = redis.call('incr', counter)
    end
    return token
end

local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local owner, patience = ARGV[1], tonumber(ARGV[3])

-- Waiters that stopped asking (their process died) lose their place.
for _, gone in ipairs(redis.call('zrangebyscore', KEYS[5], '-inf', now)) do
    redis.call('lrem', KEYS[4], 0, gone)
    redis.call('zrem', KEYS[5], gone)
end

if redis.call('exists', KEYS[1]) == 0 then
    local head = redis.call('lindex', KEYS[4], 0)
    if (not head) or head == owner then
        if head then
            redis.call('lpop', KEYS[4])
            redis.call('zrem', KEYS[5], owner)
        end
        local token = next_token(KEYS[2])
        redis.call('hset', KEYS[1], owner, 1)
        redis.call('pexpire', KEYS[1], ARGV[2])
        return {1, token}
    end
elseif redis.call('hexists', KEYS[1], owner) == 1 then
    -- A retried request finds its own grant.
    redis.call('pexpire', KEYS[1], ARGV[2])
    return {1, tonumber(redis.call('get', KEYS[2]))}
end

if not redis.call('zscore', KEYS[5], owner) then
    redis.call('rpush', KEYS[4], owner)
end
redis.call('zadd', KEYS[5], now + patience, owner)
redis.call('pexpire', KEYS[4], patience)
redis.call('pexpire', KEYS[5], patience)

-- PTTL is 0 in the last millisecond of a lease (the lock still exists): ask again at once.
local held = redis.call('pttl', KEYS[1])
if held ~= -2 then
    return {0, held}
end
-- Free, but an earlier waiter is first: it has been woken, or its place expires by then.
local head = redis.call('lindex', KEYS[4], 0)
return {0, math.max(0, tonumber(redis.call('zscore', KEYS[5], head)) - now)}
