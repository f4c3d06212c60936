-- What a hold lives by after it was granted, for every kind: the minimum hold kept after the
-- last release (keep), the watchdog's renewal of every lock a process holds, and the releases
-- of a manager that closes or of an operator who forces one.

-- keep: the last hold of an owner on the reentrant or fair lock ends before its minimum hold has
-- passed (a job that returned early): instead of being deleted, the lock stays taken, by nobody
-- (mark 'k', which no owner holds and no acquisition takes), for what is left of the minimum hold,
-- and then expires. Waiters wait for its time to live, as for any holder's lease; everyone a
-- release would wake is woken once to learn it (processes in the ring, waiters that asked for '*',
-- the head of the fair queue), as the kept lock is offered to nobody and now ends sooner.
-- The latch is written first, as by release: a script that fails after it leaves the lock held
-- by the owner until its own lease runs out, never freed early; a retry, which finds the lock
-- still the owner's, keeps it as the first copy would have, and a resend after a lost reply
-- answers what the first copy did.
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- KEYS[3] latch: the owner's release latch
-- KEYS[4] queue: the fair queue
-- KEYS[5] places: the start of each fair waiter's place key
-- ARGV[1] owner: the owner id
-- ARGV[2] latch-life: the latch's lifetime, ms
-- ARGV[3] keep: how long to keep the lock, ms
-- ARGV[4] request: this release request's id
-- ARGV[5] publish: the publish command
-- returns 0 when kept, -1 when the owner held nothing (lost)
function ops.keep()
    local current = redis.call('get', KEYS[1])
    local answer = begin_release(current, '0')
    if answer then
        return answer
    end
    local mark, owner, token, _, since, ring, thread = exclusive_fields(current)
    redis.call('set', KEYS[1], exclusive_value('k', owner, token, '0', since, '', thread), 'xx', 'px', ARGV[3])
    wake_fair_head(KEYS[4], KEYS[5], KEYS[2], ARGV[5])
    if ring ~= '' or mark == 'W' or mark == 'F' then
        wake(ARGV[5], KEYS[2], '*')
    end
    return 0
end

-- renew: extends, in one call, the lease of many holds (any kind) the watchdog keeps, or that a
-- transaction confirms before it commits.
-- KEYS[i] lock: the lock of each hold, i from 1 to n
-- ARGV[1] lease: lease ms
-- ARGV[2i] hold: for KEYS[i], the owner (an exclusive lock) or its hold field (read/write)
-- ARGV[2i+1] expiry: for KEYS[i], '' (an exclusive lock) or the owner's expiry field (read/write)
-- returns a list of n numbers: 1 when the hold is still there and extended, 0 when it is gone
function ops.renew()
    local lease = tonumber(ARGV[1])
    local now = nil
    local renewed = {}
    for i, key in ipairs(KEYS) do
        local field, expiry_field = ARGV[2 * i], ARGV[2 * i + 1]
        if expiry_field == '' then
            if owned_by(redis.call('get', key), field) then
                redis.call('pexpire', key, lease)
                renewed[i] = 1
            else
                renewed[i] = 0
            end
        else
            now = now or now_ms()
            local expiry = tonumber(redis.call('hget', key, expiry_field) or '0')
            if expiry > now and redis.call('hexists', key, field) == 1 then
                if now + lease > expiry then
                    redis.call('hset', key, expiry_field, string.format('%d', now + lease))
                end
                -- Never shorten the hash's lease: other holders of the shared hash may need it longer.
                if redis.call('pttl', key) < lease then
                    redis.call('pexpire', key, lease)
                end
                renewed[i] = 1
            else
                renewed[i] = 0
            end
        end
    end
    return renewed
end

-- release-all: drops every hold of one owner at once (shutdown, an uncertain acquisition), any kind.
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- ARGV[1] hold: the owner (exclusive) or its hold field (read/write)
-- ARGV[2] expiry: '' (exclusive) or the owner's expiry field (read/write)
-- ARGV[3] publish: the publish command
-- returns 1 when the owner held the lock and it is released, 0 when it held nothing
ops['release-all'] = function()
    if ARGV[2] == '' then
        if not owned_by(redis.call('get', KEYS[1]), ARGV[1]) then
            return 0
        end
        redis.call('del', KEYS[1])
        wake(ARGV[3], KEYS[2], '*')
        return 1
    end
    if redis.call('hdel', KEYS[1], ARGV[1]) == 0 then
        return 0
    end
    local owner = string.sub(ARGV[2], 3)
    -- The owner's expiry also covers its other side's hold: keep it while that side is held.
    if redis.call('hexists', KEYS[1], 'r:' .. owner) == 0 and redis.call('hexists', KEYS[1], 'w:' .. owner) == 0 then
        redis.call('hdel', KEYS[1], ARGV[2])
    end
    local holders = 0
    for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
        local kind = string.sub(field, 1, 2)
        if kind == 'r:' or kind == 'w:' then
            holders = holders + 1
        end
    end
    if holders == 0 then
        redis.call('del', KEYS[1])
    end
    wake(ARGV[3], KEYS[2], '*')
    return 1
end

-- force-release: removes a lock whoever holds it (any kind) and wakes every waiter.
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- ARGV[1] publish: the publish command
-- returns 1 when a lock was removed, 0 when there was none
ops['force-release'] = function()
    -- A read/write lock is a hash, which GET refuses: then it is no lock left to other processes.
    local current = redis.pcall('get', KEYS[1])
    if redis.call('del', KEYS[1]) == 1 then
        wake(ARGV[1], KEYS[2], '*')
        -- A lock offered to a process (see release) has no holder to remove.
        local offered = type(current) == 'string' and string.sub(current, 1, 1) == 'r'
        return offered and 0 or 1
    end
    return 0
end
