-- Drops every hold of one owner at once (shutdown, or a transaction that completed).
-- KEYS[1] lock hash, KEYS[2] release channel
-- ARGV[1] owner id
-- returns 1 when the owner held the lock and it is released, 0 when it held nothing
if redis.call('hdel', KEYS[1], ARGV[1]) == 0 then
    return 0
end
if redis.call('hlen', KEYS[1]) == 0 then
    redis.call('del', KEYS[1])
    redis.call('publish', KEYS[2], 'released')
end
return 1
