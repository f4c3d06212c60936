-- First acquisition of a reentrant lock by an owner that holds no hold on it yet.
-- KEYS[1] lock hash (field = owner id, value = hold count), KEYS[2] fencing counter
-- ARGV[1] owner id, ARGV[2] lease ms
-- returns {1, fencing token} when acquired, {0, remaining lease ms} when another owner holds it

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

if redis.call('exists', KEYS[1]) == 0 then
    local token = next_token(KEYS[2])
    redis.call('hset', KEYS[1], ARGV[1], 1)
    redis.call('pexpire', KEYS[1], ARGV[2])
    return {1, token}
end
-- A retried request (the reply to the first one was lost) finds its own grant: answer it again
-- instead of counting a second hold the caller never asked for.
if redis.call('hexists', KEYS[1], ARGV[1]) == 1 then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return {1, tonumber(redis.call('get', KEYS[2]))}
end
return {0, redis.call('pttl', KEYS[1])}
