-- The least a safe release can do: delete the key only if this owner holds it.
-- KEYS[1] lock key
-- ARGV[1] owner id
-- returns 1 when released, 0 when this owner did not hold the key
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
