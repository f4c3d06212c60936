-- Extends, in one call, the lease of every hold the watchdog keeps for this process (any kind).
-- KEYS[1..n] lock hashes
-- ARGV[1] lease ms; then for each KEYS[i]: ARGV[2i] the hold-count field,
-- ARGV[2i+1] the owner's expiry field ('' when the hold shares the hash's lease)
-- returns a list of n numbers: 1 when the lease was extended, 0 when that hold is gone
local lease = tonumber(ARGV[1])
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local renewed = {}
for i, key in ipairs(KEYS) do
    local field, expiryField = ARGV[2 * i], ARGV[2 * i + 1]
    if redis.call('hexists', key, field) == 1 then
        if expiryField ~= '' and now + lease > tonumber(redis.call('hget', key, expiryField) or '0') then
            redis.call('hset', key, expiryField, now + lease)
        end
        -- Never shorten the hash's lease: other holders of a shared lock may need it longer.
        if redis.call('pttl', key) < lease then
            redis.call('pexpire', key, lease)
        end
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
