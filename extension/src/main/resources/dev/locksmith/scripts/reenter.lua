-- Another hold by an owner that already holds the lock.
-- KEYS[1] lock hash
-- ARGV[1] owner id, ARGV[2] lease ms
-- returns the new hold count, or 0 when the owner's hold is gone (lost)
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local count = redis.call('hincrby', KEYS[1], ARGV[1], 1)
redis.call('pexpire', KEYS[1], ARGV[2])
return count
