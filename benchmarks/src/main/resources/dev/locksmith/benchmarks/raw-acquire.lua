-- The least a lock acquisition can do: set the key if it is absent, with a lease.
-- KEYS[1] lock key
-- ARGV[1] owner id, ARGV[2] lease ms
-- returns 1 when acquired, 0 when another owner holds the key
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return 1
end
return 0
