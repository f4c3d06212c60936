-- Drops all holds of one owner at once (shutdown, an uncertain acquisition, a completed
-- transaction), for any kind of lock.
-- KEYS[1] lock hash, KEYS[2] release channel
-- ARGV[1] the owner's hold-count field, ARGV[2] the owner's expiry field or '',
-- ARGV[3] publish command (publish or spublish)
-- returns 1 when the owner held the lock and it is released, 0 when it held nothing
if redis.call('hdel', KEYS[1], ARGV[1]) == 0 then
    return 0
end
if ARGV[2] ~= '' then
    -- A read/write owner's expiry (e:<owner>) also covers its other side's hold: keep it while
    -- the owner still holds the read or the write side.
    local owner = string.sub(ARGV[2], 3)
    if redis.call('hexists', KEYS[1], 'r:' .. owner) == 0 and redis.call('hexists', KEYS[1], 'w:' .. owner) == 0 then
        redis.call('hdel', KEYS[1], ARGV[2])
    end
end
-- Count what still holds the lock: read/write hashes also carry expiry (e:) and waiting-writer
-- (q:) fields, which hold nothing by themselves.
local holders = 0
for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
    local kind = string.sub(field, 1, 2)
    if kind ~= 'e:' and kind ~= 'q:' then
        holders = holders + 1
    end
end
if holders == 0 then
    redis.call('del', KEYS[1])
    redis.call(ARGV[3], KEYS[2], '*')
end
return 1
