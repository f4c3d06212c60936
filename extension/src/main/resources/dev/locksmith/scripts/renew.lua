-- Extends, in one call, the lease of every lock the watchdog keeps for this process.
-- KEYS[1..n] lock hashes
-- ARGV[1] lease ms, ARGV[2..n+1] the owner id holding KEYS[i-1]
-- returns a list of n numbers: 1 when the lease was extended, 0 when that hold is gone
local renewed = {}
for i, key in ipairs(KEYS) do
    if redis.call('hexists', key, ARGV[i + 1]) == 1 then
        redis.call('pexpire', key, ARGV[1])
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
