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
--   r<manager id>:|<offer token>|<offer number>|<offered ms>|<ring>|
-- a lock nobody holds, reserved for that manager's process: the fencing token of the hold whose
-- release made the offer, how often it was passed on since (see pass-offer), and when it was
-- made to that process, by the clock of the process that made or passed on the offer (empty in
-- an offer made by an older version): a TIME call would cost every hand-off a command.

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
-- ARGV[6] join-ring: '1' to join the ring when the lock is taken, '' to ask for '*' instead
-- returns {1, fencing token} when acquired, {0, remaining lease ms, 1 when the owner's process is
-- in the ring} when another owner holds it or it is offered to another process
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
    if mark == 'r' and holder == manager then
        redis.call('set', KEYS[1], exclusive_value(ring == '' and '-' or 'W', owner, token, '1', ARGV[3], ring, ARGV[4]),
            'px', lease)
        return {1, token}
    end
    if ARGV[6] ~= '' and (mark == '-' or mark == 'w' or mark == 'W' or mark == 'r')
            and not same_manager(current, owner) then
        local joined = join_ring(ring, manager)
        local wanted = mark == 'r' and 'r' or 'W'
        if joined ~= ring or wanted ~= mark then
            redis.call('set', KEYS[1], exclusive_value(wanted, holder, held_token, count, since, joined, thread),
                'keepttl')
        end
        return {0, redis.call('pttl', KEYS[1]), 1}
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
local function begin_release(current, released)
    if not owned_by(current, ARGV[1]) then
        return answered_before(KEYS[3], ARGV[4]) or -1
    end
    record_answer(KEYS[3], ARGV[4], released, ARGV[2])
    return nil
end

-- release: the last hold of an owner on the reentrant lock ends. When processes wait in the
-- ring, the lock is offered to the first of them that still listens, reserved for its process
-- for as long as a lease at most, and only that process is told; the offer records when it was
-- made (ARGV[7], the releasing process's clock, for describe: a TIME call here would cost every
-- hand-off a command); the releaser's process may stay in the ring, at its end, if it
-- listens too (its threads come back soon, or it has waiters of its own). Otherwise the lock is
-- deleted, and the waiters that asked for '*' are woken.
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- KEYS[3] latch: the owner's release latch
-- ARGV[1] owner: the owner id
-- ARGV[2] latch-life: the latch's lifetime, ms
-- ARGV[3] publish: the publish command
-- ARGV[4] request: this release request's id
-- ARGV[5] reserve: how long an offer keeps the lock for its process, ms, or '' to offer to nobody
--     (RedLock)
-- ARGV[6] stay-in-ring: '1' to keep the owner's process in the ring
-- ARGV[7] now: the releasing process's time, ms
-- returns 0 when released, 1 when released and offered to another process, -1 when the owner
-- held nothing (lost)
function ops.release()
    local current = redis.call('get', KEYS[1])
    local mark, token, ring = string.sub(current or '', 1, 1), nil, ''
    if current and not without_ring(current) then
        local _
        _, _, token, _, _, ring = exclusive_fields(current)
    end
    local offers = ARGV[5] ~= '' and ring ~= nil and ring ~= ''
    local answer = begin_release(current, offers and '1' or '0')
    if answer then
        return answer
    end
    if offers then
        local self = manager_of(ARGV[1])
        local target, rest = offer_to_ring(KEYS[2], ARGV[3], ring, offer_message(token, 0), self)
        if target then
            if ARGV[6] ~= '' then
                rest = join_ring(rest, self)
            end
            redis.call('set', KEYS[1], exclusive_value('r', target, token, '0', ARGV[7] or '', rest, ''), 'px', ARGV[5])
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
-- ring that listens; with nobody left, the lock is deleted and everyone is woken. Sent by the
-- process offered to when no thread of it wants the lock any more, by the releaser when the offer
-- was not taken within a command timeout (the process offered to died or stopped), and by a
-- closing process for offers to processes that stopped listening. An offer that was taken, or
-- passed on meanwhile, is left alone. The offer passed on records when (ARGV[7], the sender's clock).
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- ARGV[1] token: the offer token, or '' for any
-- ARGV[2] number: the offer number, or '' for any
-- ARGV[3] offered-to: the manager offered to, or '' for any
-- ARGV[4] publish: the publish command
-- ARGV[5] reserve: how long the next offer keeps the lock, ms
-- ARGV[6] only-if-gone: '' to pass it on, or the command counting a channel's listeners (pubsub
--     numsub or shardnumsub) to pass it on only when its process no longer listens
-- ARGV[7] now: the sender's time, ms
-- ARGV[8] withdraw: '1' to withdraw the offer instead of passing it on: its releaser closes, and
--     an offer passed on now would have nobody to watch it, so the lock is freed and everyone
--     woken to ask (a process about to take the offer finds the lock free and takes it)
-- returns the number of the offer of that token standing afterwards (one more than ARGV[2] when
-- this call passed it on), or -1 when there is none (it was taken, withdrawn, or nobody was left)
ops['pass-offer'] = function()
    local current = redis.call('get', KEYS[1])
    local mark, target, token, number, _, ring = exclusive_fields(current or '')
    if mark ~= 'r' or (ARGV[1] ~= '' and token ~= ARGV[1]) then
        return -1
    end
    if offer_stays(target, number) then
        return tonumber(number)
    end
    local next_number = tonumber(number) + 1
    local taker, rest
    if ARGV[8] ~= '1' then
        taker, rest = offer_to_ring(KEYS[2], ARGV[4], ring, offer_message(token, next_number), target)
    end
    if taker then
        redis.call('set', KEYS[1], exclusive_value('r', taker, token, next_number, ARGV[7] or '', rest, ''),
            'px', ARGV[5])
        return next_number
    end
    redis.call('del', KEYS[1])
    wake(ARGV[4], KEYS[2], '*')
    return -1
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
