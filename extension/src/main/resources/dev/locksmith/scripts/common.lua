-- The helpers the operations of every lock kind share: fencing tokens, the clock, owner and
-- manager ids, the ring of waiting processes, release latches and wake-ups. The operations are in
-- exclusive.lua, fair.lua, read-write.lua, leases.lua and administration.lua. LockScriptSource
-- reads the six files in that order, this one first, cuts them into their top-level definitions
-- and gives each operation, as a script of its own, the helpers it uses, because Redis runs a
-- script's whole top level on every call. A helper uses only helpers defined above it, in its own
-- file or an earlier one. Each operation's header names its KEYS and ARGV, one line each, in order:
-- '-- KEYS[1] lock: what it is' or '-- ARGV[2] lease: what it means' (a name of lower-case words
-- joined by '-', then what the value is; a longer explanation goes on on lines indented further).
-- A value repeated once per key of a variable number of KEYS is written KEYS[i], or ARGV[2i] and
-- ARGV[2i+1] for two per key. LockScriptSource reads these lines as the operation's signature,
-- and every call built in Java names each value it passes, so a call that passes a value where
-- the script expects another is refused before it is sent. Operations defined on consecutive
-- lines share the header above the first.
--
-- Every operation reads and checks what it needs before its first write, and every write is one
-- a retry may repeat: Redis keeps the writes of a script that fails halfway, so a failure
-- (a refused command, a full memory) must never leave state that a retry would misread.
--
-- An owner id is <manager id>:<thread id>, one manager per process (or per LockManager). A ring
-- is the processes waiting for a lock, in turn order, as ',<manager id>:,...,' ('' when none): a
-- release offers the lock to the first of them that still listens, and to nobody else.

local SEEDED = 1e15 -- every counter seeded from the clock is above this (microseconds since 2001)

-- The next fencing token. A counter that is missing (first use, after its lifetime, or on a
-- server that lost its data) or below SEEDED (a seeding that failed halfway) starts from the
-- server clock in microseconds, so tokens keep increasing across its loss as long as the clock
-- does not go back. INCR first: a retry after any failure finds the counter no lower.
local function next_token(counter, lifetime)
    local token = redis.call('incr', counter)
    if token < SEEDED then
        local time = redis.call('time')
        redis.call('set', counter, time[1] .. string.format('%06d', tonumber(time[2])), 'px', lifetime)
        token = redis.call('incr', counter)
    end
    return token
end

local function now_ms()
    local time = redis.call('time')
    return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- The manager part of an owner id, with its ':'.
local function manager_of(owner)
    return string.match(owner, '^[^:]*:')
end

-- Whether a lock's value (a holder's or a yield's) belongs to the process of that owner.
local function same_manager(value, owner)
    local manager = manager_of(owner)
    return string.sub(value, 2, #manager + 1) == manager
end

-- A process joins the ring of waiting processes (see the value's format above) at its end, once.
local function join_ring(ring, manager)
    if ring == '' then
        return ',' .. manager .. ','
    end
    if string.find(ring, ',' .. manager .. ',', 1, true) then
        return ring
    end
    return ring .. manager .. ','
end

-- The one writer of an offer message, which OfferMessage reads in Java: 'o2|<offer token>|<offer
-- number>'. Its 'o2' is the format, so that a process of another version knows an offer it cannot
-- read (it asks Redis instead, as after any wake-up).
local function offer_message(token, number)
    return 'o2|' .. token .. '|' .. number
end

-- The one writer of a grant message, which OfferMessage reads in Java: 'o3|<offer token>|<offer
-- number>|<grant token>|<patience ms>'. A grant is an offer that already carries the taker's
-- fencing token, and how long after it was made nobody but its process may pass it on: the process
-- offered to may let its sleeping waiter hold the lock on hearing it, while it confirms it
-- (take-grant). A process of a version that reads only 'o2' asks Redis instead.
local function grant_message(token, number, grant, patience)
    return 'o3|' .. token .. '|' .. number .. '|' .. string.format('%d', grant) .. '|' .. patience
end

-- The one writer of a grant as the offer's value keeps it, in the field a holder keeps its thread
-- name in (an offer has none): 'g<grant token>/<pttl ms>', the key's time to live below which its
-- patience has run out (the reservation it was written with, less the patience).
local function grant_field(grant, reserve, patience)
    return 'g' .. string.format('%d', grant) .. '/' .. (tonumber(reserve) - tonumber(patience))
end

-- The one reader of a grant field (see grant_field): the grant token (a string) and the time to
-- live below which it may be passed on (a number); nil for an offer without a grant (made by an
-- older version).
local function grant_of(field)
    local grant, passable = string.match(field, '^g(%d+)/(%-?%d+)$')
    return grant, tonumber(passable)
end

-- Offers the lock to the first process of the ring that still listens on its own channel
-- (<release channel>:<manager id>:), skipping and dropping those that do not: PUBLISH answers how
-- many clients received the offer, and the connection of a process that died is closed. Only the
-- process offered to hears of it, so a hand-off costs the same however many processes wait.
-- skip: a manager not to offer to (the releaser's own process, or one that declined)
-- returns the manager offered to (nil when nobody listened), the ring left after it, and the
-- managers dropped because they no longer listen
local function offer_to_ring(channel, publish, ring, offer, skip)
    local gone = {}
    while ring ~= '' do
        local target = string.match(ring, '^,([^,]*),')
        ring = string.sub(ring, #target + 2)
        if ring == ',' then
            ring = ''
        end
        if target ~= skip then
            if redis.call(publish, channel .. ':' .. target, offer) > 0 then
                return target, ring, gone
            end
            table.insert(gone, target)
        end
    end
    return nil, '', gone
end

-- Asks the holder's release to wake this waiter with '*', unless it will anyway; a reentrant
-- holder learns whether a waiter of another process asks.
local function ask_to_be_woken(lock, current, owner, fair_waiter)
    local mark = string.sub(current, 1, 1)
    if mark == '-' or mark == 'w' then
        local wanted = same_manager(current, owner) and 'w' or 'W'
        if wanted ~= mark then
            redis.call('setrange', lock, 0, wanted)
        end
    elseif mark == 'f' and not fair_waiter then
        redis.call('setrange', lock, 0, 'F')
    end
end

-- The one reader of a release latch (<request>|<answer>, see record_answer): the answer the
-- given request got, or nil when the latch is missing or holds another request's.
local function latch_answer(latch_value, request)
    if latch_value and string.sub(latch_value, 1, #request + 1) == request .. '|' then
        return tonumber(string.sub(latch_value, #request + 2))
    end
    return nil
end

-- Keeps what a release request answers, for the client's command timeout, so that the same
-- request resent after its reply was lost answers what the first one did instead of taking effect
-- twice (see answered_before). One latch per owner and lock, holding <request>|<answer> of the
-- owner's latest release: an owner (one thread) sends its next release of a lock only once the
-- previous one was answered or timed out, and the client resends no request that timed out.
-- Overwriting one key, not creating one per release, keeps Redis from allocating and expiring a
-- key on every cycle. answer: a string, so that no number is formatted on every release.
local function record_answer(latch, request, answer, lifetime)
    redis.call('set', latch, request .. '|' .. answer, 'px', lifetime)
end

-- The answer a release request got before, for one whose owner no longer holds what it releases:
-- only then can it have run before, since a release that ran took the hold away and its owner sent
-- nothing else meanwhile. An owner that still holds it is releasing for the first time (or again
-- after a copy that failed before its writes took effect), so its release reads no latch.
-- returns the answer the same request got before, or nil
local function answered_before(latch, request)
    return latch_answer(redis.call('get', latch), request)
end

local function wake(publish, channel, message)
    redis.call(publish, channel, message)
end
