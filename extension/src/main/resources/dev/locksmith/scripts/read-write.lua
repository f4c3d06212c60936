-- The read/write lock is one hash with, per owner: r:<owner> and w:<owner> (that owner's read and
-- write hold, valued <fencing token>|<since ms>|<thread name>), e:<owner> (when that owner's holds expire unless
-- renewed, server ms), q:<owner> (until when that owner waits to write); f, set while a
-- waiter asks to be woken by the next release; o, the ring of processes waiting to write (as the
-- exclusive lock's ring); and x, '<manager id>:|<offer token>|<offer number>|<offered ms>' while
-- the write lock is offered to that manager's process (see release-write), '' once a writer of that
-- process took it, until the lock is free again. <offered ms> is when the offer reached that
-- process, by the clock of the process that made or passed on the offer, as the exclusive lock's
-- (absent in an offer made by an older version). The hash lives as long
-- as its latest expiry.

-- The one reader of a read or write hold's value (r:<owner>, w:<owner>, see above): fencing token,
-- since ms and thread name; since ms and thread name are '' in a value an older version wrote.
local function rw_hold_fields(value)
    return string.match(value, '^(%d+)|?(%d*)|?(.*)$')
end

-- The one writer of a read or write hold's value (see rw_hold_fields).
local function rw_hold_value(token, since, thread)
    return string.format('%d', token) .. '|' .. since .. '|' .. thread
end

-- The one reader of a write offer (the read/write hash's x, see above): manager offered to, offer
-- token, offer number and offered ms ('' when an older version made it); nil for '' (taken).
local function write_offer_fields(value)
    return string.match(value, '^([^|]*)|(%d+)|(%d+)|?(%d*)$')
end

-- The one writer of a write offer (see write_offer_fields); offered is '' when not known.
local function write_offer_value(manager, token, number, offered)
    return manager .. '|' .. token .. '|' .. number .. '|' .. offered
end

-- Removes the waiting-writer marks (q:<owner>) of the given managers' owners from a read/write
-- hash: processes that no longer listen, or were passed over, hold back no reader.
local function drop_writer_marks(hash, managers)
    if #managers == 0 then
        return
    end
    local marks = {}
    for _, field in ipairs(redis.call('hkeys', hash)) do
        for _, manager in ipairs(managers) do
            if string.sub(field, 1, #manager + 2) == 'q:' .. manager then
                table.insert(marks, field)
            end
        end
    end
    if #marks > 0 then
        redis.call('hdel', hash, unpack(marks))
    end
end

-- The read/write lock's state, read in one pass over the hash. With a time (acquisitions),
-- holders whose expiry passed and writers whose wait lapsed are left out, and removed.
-- Without one (releases), every entry counts: an expired hold still in the hash means that
-- nobody has entered against it since, for whoever enters removes it first.
local function rw_state(hash, now)
    -- Fields that start unset (writer, soonest, flag, offer, offered_to, offer_taken) are left out
    -- of the constructor: every acquisition and release builds this table.
    local state = {readers = 0, waiting = 0, fields = {}, expiry = {}, latest = 0, ring = ''}
    local raw = redis.call('hgetall', hash)
    if now then
        for i = 1, #raw, 2 do
            if string.sub(raw[i], 1, 2) == 'e:' then
                state.expiry[string.sub(raw[i], 3)] = tonumber(raw[i + 1])
            end
        end
    end
    local expired = nil
    for i = 1, #raw, 2 do
        local field, value = raw[i], raw[i + 1]
        local kind, who = string.sub(field, 1, 2), string.sub(field, 3)
        local live = (now == nil) or ((kind == 'q:' and tonumber(value) or state.expiry[who] or 0) > now)
        if kind == 'q:' or kind == 'e:' or kind == 'r:' or kind == 'w:' then
            if not live then
                expired = expired or {}
                table.insert(expired, field)
            elseif kind == 'q:' then
                state.waiting = state.waiting + 1
                state.latest = math.max(state.latest, tonumber(value))
                state.fields[field] = value
            elseif kind == 'e:' then
                state.soonest = math.min(state.soonest or tonumber(value), tonumber(value))
                state.latest = math.max(state.latest, tonumber(value))
            else
                state.fields[field] = value
                if kind == 'w:' then
                    state.writer = who
                else
                    state.readers = state.readers + 1
                end
            end
        elseif field == 'f' then
            state.flag = true
        elseif field == 'o' then
            state.ring = value
        elseif field == 'x' and value == '' then
            state.offer_taken = true
        elseif field == 'x' then
            state.offer = value
            state.offered_to = string.match(value, '^([^|]*)|')
        end
    end
    if expired then
        redis.call('hdel', hash, unpack(expired))
    end
    return state
end

-- Deletes the read/write hash once nobody holds the lock, waits to write, or is offered it: a ring
-- or a wake-up flag left alone would keep the hash for a lease after everyone went (the callers
-- woke everyone to ask, and whoever still wants the lock joins afresh). Lapsed entries go too.
local function drop_when_idle(hash)
    local state = rw_state(hash, now_ms())
    if state.writer == nil and state.readers == 0 and state.waiting == 0 and not state.offer then
        redis.call('del', hash)
    end
end

-- Grants the hold. A writer that takes the offer to its process empties the offer in the same
-- HSET (x = '' until the release: the offer was taken), which saves a command on every hand-off.
local function rw_grant(hash, field, owner, lease, now, state, waited, takes_offer)
    local token = next_token(KEYS[2], ARGV[3])
    if waited then
        redis.call('hdel', hash, 'q:' .. owner)
    end
    local expiry = math.max(now + lease, state.expiry[owner] or 0)
    local hold = rw_hold_value(token, ARGV[4], ARGV[5])
    if takes_offer then
        redis.call('hset', hash, field, hold, 'e:' .. owner, string.format('%d', expiry), 'x', '')
    else
        redis.call('hset', hash, field, hold, 'e:' .. owner, string.format('%d', expiry))
    end
    redis.call('pexpire', hash, math.max(expiry, state.latest) - now)
    return {1, token}
end

-- acquire-read / acquire-write: first hold of an owner on one side of the read/write lock.
-- New readers yield to waiting writers, so a stream of readers cannot starve them. A writer whose
-- process listens on its own channel joins the ring of waiting processes, and the lock, once
-- free, is offered to the first of them (see release-write); an offered lock is taken only by a
-- writer of the process it is offered to. KEYS and ARGV are the operations' below.
local function rw_acquire(read)
    local hash, owner, lease = KEYS[1], ARGV[1], tonumber(ARGV[2])
    local field = (read and 'r:' or 'w:') .. owner
    local now = now_ms()
    local state = rw_state(hash, now)
    if state.fields[field] then
        -- A retried request finds its own grant.
        return {1, tonumber((rw_hold_fields(state.fields[field])))}
    end
    local joined = nil
    if read then
        if state.writer == owner or (state.writer == nil and state.waiting == 0 and not state.offer) then
            return rw_grant(hash, field, owner, lease, now, state, false, false)
        end
        if not state.flag then
            redis.call('hset', hash, 'f', 1)
        end
    else
        if state.writer == nil and state.readers == 0 and (not state.offer or state.offered_to == manager_of(owner)) then
            local waited = state.waiting > 0 and state.fields['q:' .. owner] ~= nil
            return rw_grant(hash, field, owner, lease, now, state, waited, state.offer ~= nil)
        end
        local manager = manager_of(owner)
        local own_holder = state.writer and manager_of(state.writer) == manager
        for name in pairs(state.fields) do
            if string.sub(name, 1, 2 + #manager) == 'r:' .. manager then
                own_holder = true
            end
        end
        -- A holder of the same process wakes its own waiters when it releases (as for the
        -- exclusive lock, a process joins the ring only behind other processes).
        if ARGV[6] ~= '' and not own_holder then
            joined = join_ring(state.ring, manager)
            redis.call('hset', hash, 'q:' .. owner, string.format('%d', now + lease), 'o', joined)
        else
            redis.call('hset', hash, 'q:' .. owner, string.format('%d', now + lease), 'f', 1)
        end
        redis.call('pexpire', hash, math.max(now + lease, state.latest) - now)
    end
    -- The soonest holder expiry is the earliest moment a dead holder can be dropped; live
    -- holders' releases wake the waiter earlier through the channel.
    local busy = math.max(0, (state.soonest or now) - now)
    if state.offer and not state.soonest then
        -- Nobody holds it: it is offered to another process, which takes it or passes it on.
        busy = redis.call('pttl', hash)
    end
    if joined then
        return {0, busy, 1}
    end
    return {0, busy}
end

-- acquire-read / acquire-write (see rw_acquire):
-- KEYS[1] lock: the read/write hash
-- KEYS[2] fence: the fencing counter
-- ARGV[1] owner: the owner id
-- ARGV[2] lease: lease ms
-- ARGV[3] fence-life: the fencing counter's lifetime, ms
-- ARGV[4] since: since when the owner holds it, ms
-- ARGV[5] thread: the holding thread's name
-- ARGV[6] join-ring: '1' for a writer to join the ring when it has to wait, '' to ask for '*'
--     instead
-- returns {1, fencing token} when acquired, {0, ms until something may change[, 1 when the
-- owner's process is in the ring]} otherwise
ops['acquire-read'] = function() return rw_acquire(true) end
ops['acquire-write'] = function() return rw_acquire(false) end

-- release-read / release-write: the last hold of an owner on one side ends. When that frees the
-- lock and processes wait in the ring to write, it is offered to the first of them that listens,
-- as the exclusive lock's release does; waiting readers are woken with '*' as before. The offer
-- records when it was made by the releasing process's clock (ARGV[7]), not the server's: a TIME
-- call would cost every write hand-off one more command than its budget (CallsPerCycleTest).
-- KEYS and ARGV are the operations' below.
local function rw_release(read)
    local hash, owner = KEYS[1], ARGV[1]
    local field = (read and 'r:' or 'w:') .. owner
    local state = rw_state(hash, nil)
    local mine = state.fields[field] ~= nil
    local keeps_other = state.fields[(read and 'w:' or 'r:') .. owner] ~= nil
    local writer_after = state.writer
    if not read and state.writer == owner then
        writer_after = nil
    end
    local readers_after = state.readers - (read and 1 or 0)
    local free = writer_after == nil and readers_after == 0
    local offers = mine and free and ARGV[5] ~= '' and state.ring ~= '' and not state.offer
    if not mine then
        return answered_before(KEYS[3], ARGV[4]) or -1
    end
    record_answer(KEYS[3], ARGV[4], offers and '1' or '0', ARGV[2])
    local offered = false
    local ended = {field}
    if offers then
        local self = manager_of(owner)
        local token = rw_hold_fields(state.fields[field])
        local target, rest, gone = offer_to_ring(KEYS[2], ARGV[3], state.ring, offer_message(token, 0), self)
        drop_writer_marks(hash, gone)
        if target and ARGV[6] ~= '' then
            rest = join_ring(rest, self)
        end
        local offer_fields = {}
        if target then
            offer_fields = {'x', write_offer_value(target, token, 0, ARGV[7] or '')}
            offered = true
        else
            record_answer(KEYS[3], ARGV[4], '0', ARGV[2])
        end
        if rest ~= '' then
            table.insert(offer_fields, 'o')
            table.insert(offer_fields, rest)
        else
            table.insert(ended, 'o')
        end
        if #offer_fields > 0 then
            redis.call('hset', hash, unpack(offer_fields))
        end
    end
    if free and state.offer_taken and not offered then
        table.insert(ended, 'x')
    end
    -- Waiters may get in now if no holder is left, or if a writer left (readers may enter).
    local wakes = state.flag and (free or not read)
    if free and state.waiting == 0 and not offered then
        redis.call('del', hash)
    else
        if not keeps_other then
            table.insert(ended, 'e:' .. owner)
        end
        if wakes then
            table.insert(ended, 'f')
        end
        redis.call('hdel', hash, unpack(ended))
    end
    if wakes then
        wake(ARGV[3], KEYS[2], '*')
    end
    return offered and 1 or 0
end

-- release-read / release-write (see rw_release):
-- KEYS[1] lock: the read/write hash
-- KEYS[2] channel: the release channel
-- KEYS[3] latch: the owner's release latch
-- ARGV[1] owner: the owner id
-- ARGV[2] latch-life: the latch's lifetime, ms
-- ARGV[3] publish: the publish command
-- ARGV[4] request: this release request's id
-- ARGV[5] offers: '' to offer to nobody (RedLock), else anything (the offer lasts as long as the
--     hash)
-- ARGV[6] stay-in-ring: '1' to keep the owner's process in the ring
-- ARGV[7] now: the releasing process's time, ms
-- returns 0 when released, 1 when released and offered to a waiting process, -1 when the owner
-- held nothing (lost)
ops['release-read'] = function() return rw_release(true) end
ops['release-write'] = function() return rw_release(false) end

-- rw-pass-offer: pass-offer for the write side of the read/write lock: an offer its process did
-- not take moves on to the next process of the ring that listens, and the writer marks of the
-- process passed over go (readers no longer wait for it); with nobody left, or withdrawn, the
-- offer and the ring go, the hash too when nobody holds or waits, and everyone is woken.
-- The offer passed on records when (ARGV[7], the sender's clock).
-- KEYS[1] lock: the read/write hash
-- KEYS[2] channel: the release channel
-- ARGV[1] token: the offer token, or '' for any
-- ARGV[2] number: the offer number, or '' for any
-- ARGV[3] offered-to: the manager offered to, or '' for any
-- ARGV[4] publish: the publish command
-- ARGV[5] reserve: unused (the offer lasts as long as the hash), sent as to pass-offer
-- ARGV[6] only-if-gone: as pass-offer's
-- ARGV[7] now: the sender's time, ms
-- ARGV[8] withdraw: as pass-offer's
-- returns as pass-offer
ops['rw-pass-offer'] = function()
    local offer = redis.call('hget', KEYS[1], 'x')
    if not offer or offer == '' then
        return -1
    end
    local target, token, number = write_offer_fields(offer)
    if ARGV[1] ~= '' and token ~= ARGV[1] then
        return -1
    end
    if offer_stays(target, number) then
        return tonumber(number)
    end
    local next_number = tonumber(number) + 1
    local taker, rest = nil, ''
    if ARGV[8] ~= '1' then
        local gone
        taker, rest, gone = offer_to_ring(KEYS[2], ARGV[4], redis.call('hget', KEYS[1], 'o') or '',
            offer_message(token, next_number), target)
        table.insert(gone, target)
        drop_writer_marks(KEYS[1], gone)
    end
    if taker then
        redis.call('hset', KEYS[1], 'x', write_offer_value(taker, token, next_number, ARGV[7] or ''))
        if rest ~= '' then
            redis.call('hset', KEYS[1], 'o', rest)
        else
            redis.call('hdel', KEYS[1], 'o')
        end
        return next_number
    end
    -- Withdrawn, or nobody left who listens: as the reentrant lock's pass-offer, the ring goes
    -- with the offer and everyone is woken to ask.
    redis.call('hdel', KEYS[1], 'x', 'o')
    drop_when_idle(KEYS[1])
    wake(ARGV[4], KEYS[2], '*')
    return -1
end

-- give-up-write: a writer stopped waiting (timed out, interrupted); readers held back for it may go.
-- KEYS[1] lock: the read/write hash
-- KEYS[2] channel: the release channel
-- ARGV[1] owner: the owner id
-- ARGV[2] publish: the publish command
-- returns 1 when the writer was waiting, 0 when it was not
ops['give-up-write'] = function()
    if redis.call('hdel', KEYS[1], 'q:' .. ARGV[1]) == 0 then
        return 0
    end
    drop_when_idle(KEYS[1])
    wake(ARGV[2], KEYS[2], '*')
    return 1
end

-- rw-hold: an owner entered one side of the read/write lock again; its lease grows to at least
-- the given one.
-- KEYS[1] lock: the read/write hash
-- ARGV[1] hold: the owner's hold field (r:<owner> or w:<owner>)
-- ARGV[2] expiry: the owner's expiry field (e:<owner>)
-- ARGV[3] lease: lease ms to keep at least
-- returns 1 when the owner holds that side, 0 when its hold is gone (lost)
ops['rw-hold'] = function()
    local now = now_ms()
    local expiry = tonumber(redis.call('hget', KEYS[1], ARGV[2]) or '0')
    if expiry <= now or redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
        return 0
    end
    local wanted = now + tonumber(ARGV[3])
    if wanted > expiry then
        redis.call('hset', KEYS[1], ARGV[2], string.format('%d', wanted))
        if redis.call('pttl', KEYS[1]) < tonumber(ARGV[3]) then
            redis.call('pexpire', KEYS[1], ARGV[3])
        end
    end
    return 1
end
