-- The exclusive lock (reentrant and fair) is one string key holding
--   <mark><owner>|<fencing token>|<hold count>|<since ms>|<ring>|<thread name>
-- where <mark> says who holds it and whether a waiter asked to be woken by '*' on release:
-- '-' a reentrant holder, 'w' a reentrant holder with such waiters of its own process only,
-- 'W' a reentrant holder with waiters in another process (in the ring, or asking for '*'),
-- 'f' a fair holder (whose release wakes the head of the fair queue anyway), 'F' a fair holder
-- with such waiters. 'k' a lock kept after its holder's last release, until its minimum hold has
-- passed (see keep). An owner id is <manager id>:<thread id>, one manager per process (or per
-- LockManager). The key's time to live is the lease.
-- <ring> is the processes waiting for the reentrant lock, in turn order, as ',<manager id>:,...,'
-- ('' when none): a release offers the lock to the first of them that still listens, and to
-- nobody else (see release). While that offer stands the key holds
--   r<manager id>:|<offer token>|<offer number>|<offered ms>|<ring>|g<grant token>/<pttl ms>
-- a lock nobody holds, reserved for that manager's process: the fencing token of the hold whose
-- release made the offer, how often it was passed on since (see pass-offer), when it was made to
-- that process (by the clock of the process that made or passed on the offer: a TIME call would
-- cost every hand-off a command), and the grant: the fencing token of the process's waiter that
-- takes it (take-grant), and the key's time to live below which the grant's patience has run out:
-- until then nobody but that process may pass it on. That process may let its waiter hold the
-- lock on hearing the grant, before Redis confirms it, as long as it can prove from its own clock
-- that this patience has not run out (GrantTrust). An offer made by an older version has no grant
-- field (and may have no offered ms): it is taken by the offered process's acquire, as before.

-- The one reader of an exclusive lock's value: mark, owner, fencing token, hold count, since ms,
-- ring and thread name (an offer's: mark 'r', manager, offer token, offer number); nil for a
-- value of another form.
local function exclusive_fields(value)
    return string.match(value, '^(.)([^|]*)|(%d+)|(%d+)|(%d*)|([^|]*)|(.*)$')
end

-- Whether the value names that owner as its holder: exclusive_fields' owner, read as a prefix
-- comparison that builds no captures, because every operation asks it. A kept lock (mark 'k',
-- see keep) names its last holder but is nobody's: not even that owner may take it afresh.
local function owned_by(value, owner)
    return value and string.sub(value, 2, #owner + 2) == owner .. '|' and string.sub(value, 1, 1) ~= 'k'
end

-- Whether the value names no process in its ring (exclusive_fields' ring is ''), read as a
-- pattern that builds no captures, because every release asks it and most rings are empty.
local function without_ring(value)
    return string.find(value, '^[^|]*|%d+|%d+|%d*||') ~= nil
end

-- The one writer of an exclusive lock's value (see exclusive_fields).
local function exclusive_value(mark, owner, token, count, since, ring, thread)
    return mark .. owner .. '|' .. string.format('%d', token) .. '|' .. count .. '|' .. since .. '|' .. ring .. '|'
        .. thread
end

-- acquire: first hold of an owner on the reentrant lock.
-- The token is taken before SET NX, so that the grant is one command: an attempt that finds the
-- lock taken spends a token (tokens must increase, not be dense), and a failure between the two
-- leaves the counter higher, never lower. A lock offered to the owner's process (mark 'r') is
-- taken; one held or offered elsewhere is joined: the owner's process enters the ring, if it asks
-- to (it listens on its own channel by then), and waits to be offered the lock.
-- KEYS[1] lock: the lock
-- KEYS[2] fence: the fencing counter
-- ARGV[1] owner: the owner id
-- ARGV[2] lease: lease ms
-- ARGV[3] since: since when the owner holds it, ms
-- ARGV[4] thread: the holding thread's name
-- ARGV[5] fence-life: the fencing counter's lifetime, ms
-- ARGV[6] join-ring: '1' to join the ring when the lock is taken, 'g' to join it and take a grant
--     to the owner's process (no thread there holds it on the grant's word, and none will while
--     this request is under way), 't' to take such a grant without joining, '' to ask for '*'
--     instead of joining
-- returns {1, fencing token} when acquired, {0, remaining lease ms} when another owner holds it or
-- it is offered (to another process, or granted to this one: see take-grant), or {0, remaining
-- lease ms, 1, the token this attempt spent} when the owner's process is in the ring: every grant
-- to that process still standing was made after this attempt, and has a higher token (GrantTrust)
function ops.acquire()
    local owner, lease = ARGV[1], ARGV[2]
    local token = next_token(KEYS[2], ARGV[5])
    local current = redis.call('set', KEYS[1], exclusive_value('-', owner, token, '1', ARGV[3], '', ARGV[4]), 'nx',
        'px', lease, 'get')
    if not current then
        return {1, token}
    end
    local mark, holder, held_token, count, since, ring, thread = exclusive_fields(current)
    if not mark then
        return {0, redis.call('pttl', KEYS[1])}
    end
    if owned_by(current, owner) then
        -- The owner's own hold: a retried request whose first reply was lost, a hand-over whose
        -- answer never came, or a hold whose release failed. The caller takes it afresh, with
        -- this token and a whole lease, as if it had been free.
        redis.call('set', KEYS[1], exclusive_value(mark, owner, token, '1', ARGV[3], ring, ARGV[4]), 'px', lease)
        return {1, token}
    end
    local manager = manager_of(owner)
    -- An offer with a grant (a thread field) is taken only by take-grant, or by a request whose
    -- process says that no waiter of it holds the grant on its word.
    if mark == 'r' and holder == manager and (thread == '' or ARGV[6] == 'g' or ARGV[6] == 't') then
        redis.call('set', KEYS[1], exclusive_value(ring == '' and '-' or 'W', owner, token, '1', ARGV[3], ring, ARGV[4]),
            'px', lease)
        return {1, token}
    end
    if (ARGV[6] == '1' or ARGV[6] == 'g') and (mark == '-' or mark == 'w' or mark == 'W' or mark == 'r')
            and not same_manager(current, owner) then
        local joined = join_ring(ring, manager)
        local wanted = mark == 'r' and 'r' or 'W'
        if joined ~= ring or wanted ~= mark then
            redis.call('set', KEYS[1], exclusive_value(wanted, holder, held_token, count, since, joined, thread),
                'keepttl')
        end
        return {0, redis.call('pttl', KEYS[1]), 1, token}
    end
    ask_to_be_woken(KEYS[1], current, owner, false)
    return {0, redis.call('pttl', KEYS[1])}
end

-- What the releases of an exclusive lock (reentrant and fair) share: a resent request gets the
-- answer the first one got; an owner that holds the lock has this request's answer recorded
-- first, and the caller removes the lock. It reads the release's latch (KEYS[3]), owner
-- (ARGV[1]), latch-life (ARGV[2]) and request (ARGV[4]).
-- current: the lock's value; released: what this request answers when it releases the lock ('0'
-- or '1')
-- returns nil when this request releases the lock now, else the answer to give
-- granted: true when the value is not the owner's hold but a grant this owner holds on its word
-- (see release)
local function begin_release(current, released, granted)
    if not granted and not owned_by(current, ARGV[1]) then
        return answered_before(KEYS[3], ARGV[4]) or -1
    end
    record_answer(KEYS[3], ARGV[4], released, ARGV[2])
    return nil
end

-- release: the last hold of an owner on the reentrant lock ends. When processes wait in the
-- ring, the lock is granted to the first of them that still listens: reserved for its process
-- for as long as a lease at most, with the fencing token of the waiter there that takes it, and
-- only that process is told (grant_message), so that its waiter may hold the lock on hearing it.
-- The token is taken even when nobody listens any more (tokens must increase, not be dense). The
-- releaser's process may stay in the ring, at its end, if it listens too (its threads come back
-- soon, or it has waiters of its own). Otherwise the lock is deleted, and the waiters that asked
-- for '*' are woken.
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- KEYS[3] latch: the owner's release latch
-- KEYS[4] fence: the fencing counter
-- ARGV[1] owner: the owner id
-- ARGV[2] latch-life: the latch's lifetime, ms
-- ARGV[3] publish: the publish command
-- ARGV[4] request: this release request's id
-- ARGV[5] reserve: how long an offer keeps the lock for its process, ms, or '' to offer to nobody
--     (RedLock)
-- ARGV[6] stay-in-ring: '1' to keep the owner's process in the ring
-- ARGV[7] now: the releasing process's time, ms
-- ARGV[8] patience: how long nobody but the process offered to may pass the grant on, ms: the
--     releaser's command timeout, after which its watch passes an untaken grant on
-- ARGV[9] fence-life: the fencing counter's lifetime, ms
-- ARGV[10] grant: the fencing token of the grant to the owner's process that the owner holds on
--     its word, still unconfirmed, or '': its release is sent without waiting for take-grant's
--     answer, and can run before take-grant (one answered NOSCRIPT is sent again). Such a grant
--     is released as the owner's hold, and the late take-grant finds it gone.
-- returns 0 when released, 1 when released and offered to another process, -1 when the owner
-- held nothing (lost)
function ops.release()
    local current = redis.call('get', KEYS[1])
    local mark, token, ring = string.sub(current or '', 1, 1), nil, ''
    local granted = false
    if current and (mark == 'r' or not without_ring(current)) then
        local _, holder, thread
        _, holder, token, _, _, ring, thread = exclusive_fields(current)
        granted = mark == 'r' and thread ~= nil and (ARGV[10] or '') ~= '' and grant_of(thread) == ARGV[10]
            and holder == manager_of(ARGV[1])
    end
    if granted then
        token = ARGV[10] -- the offer names the hold that ends: the grantee's
    end
    local offers = ARGV[5] ~= '' and ring ~= nil and ring ~= ''
    local answer = begin_release(current, offers and '1' or '0', granted)
    if answer then
        return answer
    end
    if offers then
        local self = manager_of(ARGV[1])
        local grant = next_token(KEYS[4], ARGV[9])
        local target, rest = offer_to_ring(KEYS[2], ARGV[3], ring, grant_message(token, 0, grant, ARGV[8]), self)
        if target then
            if ARGV[6] ~= '' then
                rest = join_ring(rest, self)
            end
            redis.call('set', KEYS[1], exclusive_value('r', target, token, '0', ARGV[7], rest,
                grant_field(grant, ARGV[5], ARGV[8])), 'px', ARGV[5])
            return 1
        end
        -- Nobody in the ring listens any more: a plain release after all, and a resend says so.
        record_answer(KEYS[3], ARGV[4], '0', ARGV[2])
    end
    redis.call('del', KEYS[1])
    if mark == 'w' or mark == 'W' then
        wake(ARGV[3], KEYS[2], '*')
    end
    return 0
end

-- Whether pass-offer leaves the offer standing (KEYS and ARGV as pass-offer's): it is another
-- offer than the one named, or the process offered to still listens when only a gone one is passed.
local function offer_stays(target, number)
    if (ARGV[2] ~= '' and number ~= ARGV[2]) or (ARGV[3] ~= '' and target ~= ARGV[3]) then
        return true
    end
    return ARGV[6] ~= '' and redis.call('pubsub', ARGV[6], KEYS[2] .. ':' .. target)[2] > 0
end

-- pass-offer: an offer (see release) its process did not take moves on to the next process of the
-- ring that listens, as a grant of its own; with nobody left, the lock is deleted and everyone is
-- woken. Sent by the process offered to when no thread of it wants the lock any more, by the
-- releaser when the offer was not taken within a command timeout (the process offered to died or
-- stopped), and by a closing process for offers to processes that stopped listening. An offer
-- that was taken, or passed on meanwhile, is left alone. A grant stands, for anyone but its own
-- process, until its patience has run out since it was made (its key's time to live tells, on the
-- server's clock): a waiter of that process may hold the lock on the grant's word until then. The
-- offer passed on records when (ARGV[7], the sender's clock).
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- KEYS[3] fence: the fencing counter
-- ARGV[1] token: the offer token, or '' for any
-- ARGV[2] number: the offer number, or '' for any
-- ARGV[3] offered-to: the manager offered to, or '' for any
-- ARGV[4] publish: the publish command
-- ARGV[5] reserve: how long the next offer keeps the lock, ms
-- ARGV[6] only-if-gone: '' to pass it on, or the command counting a channel's listeners (pubsub
--     numsub or shardnumsub) to pass it on only when its process no longer listens
-- ARGV[7] now: the sender's time, ms
-- ARGV[8] patience: the next grant's patience, ms (see release)
-- ARGV[9] withdraw: '1' to withdraw the offer instead of passing it on: its releaser closes, and
--     an offer passed on now would have nobody to watch it, so the lock is freed and everyone
--     woken to ask (a process about to take the offer finds the lock free and takes it)
-- ARGV[10] fence-life: the fencing counter's lifetime, ms, should the next grant's token find the
--     counter gone
-- returns the number of the offer of that token standing afterwards (one more than ARGV[2] when
-- this call passed it on), -1 when there is none (it was taken, withdrawn, or nobody was left),
-- or -2 - ms when it is a grant whose patience has that long to run: ask again then
ops['pass-offer'] = function()
    local current = redis.call('get', KEYS[1])
    local mark, target, token, number, _, ring, grant = exclusive_fields(current or '')
    if mark ~= 'r' or (ARGV[1] ~= '' and token ~= ARGV[1]) then
        return -1
    end
    if offer_stays(target, number) then
        return tonumber(number)
    end
    local _, passable = grant_of(grant)
    if passable and ARGV[3] == '' then
        local left = redis.call('pttl', KEYS[1]) - passable
        if left > 0 then
            return -2 - left
        end
    end
    local next_number = tonumber(number) + 1
    local taker, rest
    if ARGV[9] ~= '1' then
        local next_grant = next_token(KEYS[3], ARGV[10])
        taker, rest = offer_to_ring(KEYS[2], ARGV[4], ring, grant_message(token, next_number, next_grant, ARGV[8]),
            target)
        if taker then
            redis.call('set', KEYS[1], exclusive_value('r', taker, token, next_number, ARGV[7] or '', rest,
                grant_field(next_grant, ARGV[5], ARGV[8])), 'px', ARGV[5])
            return next_number
        end
    end
    redis.call('del', KEYS[1])
    wake(ARGV[4], KEYS[2], '*')
    return -1
end

-- take-grant: the process a release granted the lock to (see release) makes the owner of its
-- waiter the holder, with the grant's fencing token and a whole lease. Sent by that process's
-- pub/sub thread on hearing the grant (its waiter may hold the lock already, on the grant's word:
-- this confirms it), or by its waiter itself when it was awake then. A copy of a take that ran
-- (its reply was lost) finds the owner holding with that token, and answers the same.
-- KEYS[1] lock: the lock
-- ARGV[1] owner: the owner id
-- ARGV[2] lease: lease ms
-- ARGV[3] since: since when the owner holds it, ms
-- ARGV[4] thread: the holding thread's name
-- ARGV[5] grant: the grant's fencing token
-- returns {1, fencing token} when the owner holds it now, {0, remaining ms} when the grant is gone
-- (passed on after its patience, or withdrawn) and someone else may hold the lock
ops['take-grant'] = function()
    local current = redis.call('get', KEYS[1])
    if not current then
        return {0, -2}
    end
    local mark, holder, held_token, _, _, ring, grant = exclusive_fields(current)
    if owned_by(current, ARGV[1]) and held_token == ARGV[5] then
        return {1, tonumber(held_token)}
    end
    if mark == 'r' and holder == manager_of(ARGV[1]) and grant_of(grant) == ARGV[5] then
        redis.call('set', KEYS[1], exclusive_value(ring == '' and '-' or 'W', ARGV[1], ARGV[5], '1', ARGV[3], ring,
            ARGV[4]), 'px', ARGV[2])
        return {1, tonumber(ARGV[5])}
    end
    return {0, redis.call('pttl', KEYS[1])}
end

-- hand-over: the last hold of an owner on the reentrant lock passes straight to an owner of the
-- same process that waits for it, with a new fencing token: one call instead of a release, a
-- wake-up and an acquisition. The lock stays taken, so nobody is woken; waiters elsewhere that
-- asked to be woken stay asked (the mark is kept). The owner's release latch keeps the answer,
-- written last: a script that fails before it leaves the lock either still the owner's (a retry
-- hands it over) or the taker's (a retry reports the hold gone, and the taker finds its grant).
-- KEYS[1] lock: the lock
-- KEYS[2] fence: the fencing counter
-- KEYS[3] latch: the owner's release latch
-- ARGV[1] owner: the owner id
-- ARGV[2] taker: the owner that takes over
-- ARGV[3] taker-lease: its lease ms
-- ARGV[4] taker-since: since when it holds, ms
-- ARGV[5] taker-thread: its thread name
-- ARGV[6] fence-life: the fencing counter's lifetime, ms
-- ARGV[7] latch-life: the latch's lifetime, ms
-- ARGV[8] request: this request's id
-- returns the fencing token of the owner that took over, or -1 when the owner held nothing (lost)
ops['hand-over'] = function()
    local current = redis.call('get', KEYS[1])
    if not owned_by(current, ARGV[1]) then
        -- A resent request (the reply to the first was lost) gets the first one's answer.
        return answered_before(KEYS[3], ARGV[8]) or -1
    end
    local token = next_token(KEYS[2], ARGV[6])
    local mark, _, _, _, _, ring = exclusive_fields(current)
    redis.call('set', KEYS[1], exclusive_value(mark, ARGV[2], token, '1', ARGV[4], ring, ARGV[5]), 'px', ARGV[3])
    record_answer(KEYS[3], ARGV[8], string.format('%d', token), ARGV[7])
    return token
end

-- hold-count: an owner entered its reentrant or fair hold again, or left one of several; the
-- lock keeps the new count (for inspection), and its lease grows to at least the given one.
-- Setting an absolute count makes a resent request harmless.
-- KEYS[1] lock: the lock
-- ARGV[1] owner: the owner id
-- ARGV[2] count: the owner's hold count now
-- ARGV[3] lease: lease ms to keep at least, or ''
-- returns 1 when the owner holds the lock, 0 when its hold is gone (lost)
ops['hold-count'] = function()
    local current = redis.call('get', KEYS[1])
    if not owned_by(current, ARGV[1]) then
        return 0
    end
    local mark, owner, token, _, since, ring, thread = exclusive_fields(current)
    redis.call('set', KEYS[1], exclusive_value(mark, owner, token, ARGV[2], since, ring, thread), 'xx', 'keepttl')
    if ARGV[3] ~= '' and redis.call('pttl', KEYS[1]) < tonumber(ARGV[3]) then
        redis.call('pexpire', KEYS[1], ARGV[3])
    end
    return 1
end
