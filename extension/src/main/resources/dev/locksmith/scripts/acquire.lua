-- First acquisition of a reentrant lock by an owner that holds no hold on it yet.
-- KEYS[1] lock hash (field = owner id, value = hold count), KEYS[2] fencing counter
-- ARGV[1] owner id, ARGV[2] lease ms
-- returns {1, fencing token} when acquired, {0, remaining lease ms} when another owner holds it
if redis.call('exists', KEYS[1]) == 0 then
    local token = redis.call('incr', KEYS[2])
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
