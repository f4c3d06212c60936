-- Another hold by an owner that already holds the lock (any kind).
-- KEYS[1] lock hash
-- ARGV[1] the owner's hold-count field, ARGV[2] lease ms,
-- ARGV[3] the owner's expiry field ('' for kinds whose holds share the hash's lease)
-- returns the new hold count, or 0 when the owner's hold is gone (lost)
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local lease = tonumber(ARGV[2])
local count = redis.call('hincrby', KEYS[1], ARGV[1], 1)
if ARGV[3] ~= '' then
    local time = redis.call('time')
    local expiry = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + lease
    if expiry > tonumber(redis.call('hget', KEYS[1], ARGV[3]) or '0') then
        redis.call('hset', KEYS[1], ARGV[3], expiry)
    end
end
if redis.call('pttl', KEYS[1]) < lease then
    redis.call('pexpire', KEYS[1], lease)
end
return count
