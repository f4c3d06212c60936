-- Acquires and releases the two sides of a read/write lock.
-- The hash has, per owner: r:<owner> read holds, w:<owner> write holds, e:<owner> the server
-- time (ms) when that owner's holds expire unless renewed, and q:<owner> the time until which
-- that owner waits to write. The hash lives as long as its latest expiry.
-- KEYS[1] read/write hash, KEYS[2] fencing counter, KEYS[3] release channel,
-- KEYS[4] latch of this release request (release only)
-- ARGV[1] operation: acquire-read, acquire-write, release-read, release-write, or give-up-write
-- (a writer that stopped waiting)
-- ARGV[2] owner id, ARGV[3] lease ms, ARGV[4] latch lifetime ms (release only),
-- ARGV[5] publish command (publish or spublish)
-- acquire returns {1, fencing token} when acquired, {0, ms until something may change} otherwise;
-- release returns the holds left on that side (0 = released), or -1 when the owner held nothing;
-- give-up-write returns 1 when the writer was waiting, 0 when it was not
local hash, operation, owner, lease = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

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

-- Holders whose process died stop being renewed: drop them, and writers who stopped waiting.
local function drop_expired()
    local fields = redis.call('hgetall', hash)
    for i = 1, #fields, 2 do
        local kind = string.sub(fields[i], 1, 2)
        if (kind == 'e:' or kind == 'q:') and tonumber(fields[i + 1]) <= now then
            redis.call('hdel', hash, fields[i])
            if kind == 'e:' then
                local gone = string.sub(fields[i], 3)
                redis.call('hdel', hash, 'r:' .. gone, 'w:' .. gone)
            end
        end
    end
end

-- returns the writing owner (or nil), the number of reading owners, the number of waiting
-- writers, the soonest holder expiry and the latest expiry of anything in the hash
local function state()
    local writer, readers, waiting, soonest, latest = nil, 0, 0, nil, 0
    local fields = redis.call('hgetall', hash)
    for i = 1, #fields, 2 do
        local kind, value = string.sub(fields[i], 1, 2), fields[i + 1]
        if kind == 'w:' then
            writer = string.sub(fields[i], 3)
        elseif kind == 'r:' then
            readers = readers + 1
        elseif kind == 'q:' then
            waiting = waiting + 1
            latest = math.max(latest, tonumber(value))
        elseif kind == 'e:' then
            local expiry = tonumber(value)
            soonest = soonest and math.min(soonest, expiry) or expiry
            latest = math.max(latest, expiry)
        end
    end
    return writer, readers, waiting, soonest, latest
end

local function live_until_latest()
    local _, _, _, _, latest = state()
    redis.call('pexpire', hash, math.max(1, latest - now))
end

local function grant(field)
    redis.call('hincrby', hash, field, 1)
    local expiryField = 'e:' .. owner
    if now + lease > tonumber(redis.call('hget', hash, expiryField) or '0') then
        redis.call('hset', hash, expiryField, now + lease)
    end
    live_until_latest()
    return {1, next_token(KEYS[2])}
end

if operation == 'acquire-read' or operation == 'acquire-write' then
    local field = (operation == 'acquire-read' and 'r:' or 'w:') .. owner
    drop_expired()
    if redis.call('hexists', hash, field) == 1 then
        -- A retried request finds its own grant.
        return {1, tonumber(redis.call('get', KEYS[2]))}
    end
    local writer, readers, waiting, soonest = state()
    if operation == 'acquire-read' then
        -- New readers yield to waiting writers, so a stream of readers cannot starve them.
        if writer == owner or (writer == nil and waiting == 0) then
            return grant(field)
        end
    elseif writer == nil and readers == 0 then
        redis.call('hdel', hash, 'q:' .. owner)
        return grant(field)
    else
        redis.call('hset', hash, 'q:' .. owner, now + lease)
        live_until_latest()
    end
    -- The soonest holder expiry is the earliest moment a dead holder can be dropped; live
    -- holders' releases wake the waiter earlier through the channel.
    return {0, math.max(0, (soonest or now) - now)}
end

if operation == 'give-up-write' then
    if redis.call('hdel', hash, 'q:' .. owner) == 0 then
        return 0
    end
    local writer, readers, waiting = state()
    if writer == nil and readers == 0 and waiting == 0 then
        redis.call('del', hash)
    end
    -- Readers held back for this writer may go now.
    redis.call(ARGV[5], KEYS[3], '*')
    return 1
end

-- release-read or release-write
local applied = redis.call('get', KEYS[4])
if applied then
    return tonumber(applied)
end
local field = (operation == 'release-read' and 'r:' or 'w:') .. owner
if redis.call('hexists', hash, field) == 0 then
    return -1
end
local left = redis.call('hincrby', hash, field, -1)
if left <= 0 then
    left = 0
    redis.call('hdel', hash, field)
    if redis.call('hexists', hash, 'r:' .. owner) == 0 and redis.call('hexists', hash, 'w:' .. owner) == 0 then
        redis.call('hdel', hash, 'e:' .. owner)
    end
    drop_expired()
    local writer, readers, waiting = state()
    if writer == nil and readers == 0 and waiting == 0 then
        redis.call('del', hash)
        redis.call(ARGV[5], KEYS[3], '*')
    else
        if (writer == nil and readers == 0) or operation == 'release-write' then
            -- Free of holders (only waiting writers are left), or a writer went down to reading:
            -- the waiters may now get in.
            redis.call(ARGV[5], KEYS[3], '*')
        end
        live_until_latest()
    end
end
redis.call('set', KEYS[4], left, 'px', ARGV[4])
return left
