-- Every operation of every lock kind, and the helpers they share, written once. Each operation
-- runs as a script of its own: LockScriptSource cuts this file into its top-level definitions
-- and gives each operation the helpers it uses, because Redis runs a script's whole top level
-- on every call. Each operation's header below names its KEYS and ARGV.
--
-- Every operation reads and checks what it needs before its first write, and every write is one
-- a retry may repeat: Redis keeps the writes of a script that fails halfway, so a failure
-- (a refused command, a full memory) must never leave state that a retry would misread.
--
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
--
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

-- The manager part of an owner id, with its ':'.
local function manager_of(owner)
    return string.match(owner, '^[^:]*:')
end

-- Whether a lock's value (a holder's or a yield's) belongs to the process of that owner.
local function same_manager(value, owner)
    local manager = manager_of(owner)
    return string.sub(value, 2, #manager + 1) == manager
end


-- The one writer of an exclusive lock's value (see exclusive_fields).
local function exclusive_value(mark, owner, token, count, since, ring, thread)
    return mark .. owner .. '|' .. string.format('%d', token) .. '|' .. count .. '|' .. since .. '|' .. ring .. '|'
        .. thread
end

-- The one reader of a write offer (the read/write hash's x, see above): manager offered to, offer
-- token, offer number and offered ms ('' when an older version made it); nil for '' (taken).
local function write_offer_fields(value)
    return string.match(value, '^([^|]*)|(%d+)|(%d+)|?(%d*)$')
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

-- A retried request's answer, kept for the client's command timeout: a release resent after a
-- lost reply answers what the first one did instead of taking effect twice. One latch per owner
-- and lock, holding <request>|<answer> of the owner's latest release: an owner (one thread) sends
-- its next release of a lock only once the previous one was answered or timed out, and the
-- client resends no request that timed out. Overwriting one key, not creating one per release,
-- keeps Redis from allocating and expiring a key on every cycle.
-- returns the answer the same request got before, or nil
local function answered_before(latch, request, answer, lifetime)
    local earlier = redis.call('set', latch, request .. '|' .. answer, 'px', lifetime, 'get')
    if earlier and string.sub(earlier, 1, #request + 1) == request .. '|' then
        redis.call('set', latch, earlier, 'px', lifetime)
        return tonumber(string.sub(earlier, #request + 2))
    end
    return nil
end

local function wake(publish, channel, message)
    redis.call(publish, channel, message)
end

-- Wakes the head of the fair queue by name, on its process's own channel, so that one process
-- hears of it, not all. PUBLISH answers how many clients received it: a head whose process no
-- longer listens (it died, closed, or lost its connection) loses its place, and the next is woken.
-- returns the head woken, or nil when nobody listening is left in the queue
local function wake_fair_head(queue, places, channel, publish)
    local head = redis.call('lindex', queue, 0)
    while head do
        if redis.call(publish, channel .. ':' .. manager_of(head), head) > 0 then
            return head
        end
        redis.call('lpop', queue)
        redis.call('del', places .. head)
        head = redis.call('lindex', queue, 0)
    end
    return nil
end


-- acquire: first hold of an owner on the reentrant lock.
-- The token is taken before SET NX, so that the grant is one command: an attempt that finds the
-- lock taken spends a token (tokens must increase, not be dense), and a failure between the two
-- leaves the counter higher, never lower. A lock offered to the owner's process (mark 'r') is
-- taken; one held or offered elsewhere is joined: the owner's process enters the ring, if it asks
-- to (it listens on its own channel by then), and waits to be offered the lock.
-- KEYS[1] lock, KEYS[2] fencing counter
-- ARGV[1] owner, ARGV[2] lease ms, ARGV[3] since ms, ARGV[4] thread name, ARGV[5] counter lifetime ms,
-- ARGV[6] '1' to join the ring when the lock is taken, '' to ask for '*' instead
-- returns {1, fencing token} when acquired, {0, remaining lease ms, 1 when the owner's process is
-- in the ring} when another owner holds it or it is offered to another process
function ops.acquire()
    local owner, lease = ARGV[1], ARGV[2]
    local token = next_token(KEYS[2], ARGV[5])
    local current = redis.call('set', KEYS[1], exclusive_value('-', owner, token, 1, ARGV[3], '', ARGV[4]), 'nx',
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
        redis.call('set', KEYS[1], exclusive_value(mark, owner, token, 1, ARGV[3], ring, ARGV[4]), 'px', lease)
        return {1, token}
    end
    local manager = manager_of(owner)
    if mark == 'r' and holder == manager then
        redis.call('set', KEYS[1], exclusive_value(ring == '' and '-' or 'W', owner, token, 1, ARGV[3], ring, ARGV[4]),
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

-- fair-acquire: first hold of an owner on the fair lock, granted only to the head of the queue
-- (or to anyone when nobody queues); everyone else joins the queue, or refreshes its place.
-- KEYS[1] lock, KEYS[2] fencing counter, KEYS[3] queue (list of owners),
-- KEYS[4] the start of each waiter's place key (<KEYS[4]><owner> lives as long as the place)
-- ARGV[1] owner, ARGV[2] lease ms, ARGV[3] since ms, ARGV[4] thread name, ARGV[5] counter lifetime ms,
-- ARGV[6] how long a waiter keeps its place without asking again, ms
-- returns {1, fencing token} when acquired, {0, ms until something may change} otherwise
ops['fair-acquire'] = function()
    local owner, lease, patience = ARGV[1], ARGV[2], ARGV[6]
    local current = redis.call('get', KEYS[1])
    if current and owned_by(current, owner) then
        -- The owner's own hold (see acquire): taken afresh, with a new token and a whole lease.
        local token = next_token(KEYS[2], ARGV[5])
        local mark, _, _, _, _, ring = exclusive_fields(current)
        redis.call('set', KEYS[1], exclusive_value(mark, owner, token, 1, ARGV[3], ring, ARGV[4]), 'px', lease)
        return {1, token}
    end
    local head_place_left = 0
    if not current then
        local head = redis.call('lindex', KEYS[3], 0)
        -- Waiters that stopped asking (their process died) lose their place: their place key is gone.
        while head and head ~= owner do
            head_place_left = redis.call('pttl', KEYS[4] .. head)
            if head_place_left ~= -2 then
                break
            end
            redis.call('lpop', KEYS[3])
            head = redis.call('lindex', KEYS[3], 0)
        end
        if not head or head == owner then
            local token = next_token(KEYS[2], ARGV[5])
            redis.call('set', KEYS[1], exclusive_value('f', owner, token, 1, ARGV[3], '', ARGV[4]), 'px', lease)
            if head then
                redis.call('lpop', KEYS[3])
                redis.call('del', KEYS[4] .. owner)
            end
            return {1, token}
        end
    end
    if not redis.call('set', KEYS[4] .. owner, 1, 'px', patience, 'get') then
        redis.call('rpush', KEYS[3], owner)
    end
    redis.call('pexpire', KEYS[3], patience)
    if current then
        ask_to_be_woken(KEYS[1], current, owner, true)
        -- PTTL is 0 in the last millisecond of a lease (the lock still exists): ask again at once.
        return {0, redis.call('pttl', KEYS[1])}
    end
    -- Free, but an earlier waiter is first: it has been woken, or its place lapses by then.
    return {0, math.max(0, head_place_left)}
end

-- fair-leave: a waiter gives up (timed out, interrupted); if the lock is free, the new head is
-- woken in its place.
-- KEYS[1] lock, KEYS[2] release channel, KEYS[3] queue, KEYS[4] the start of each waiter's place key
-- ARGV[1] owner, ARGV[2] publish command
-- returns 1 when the owner was queued, 0 when it was not
ops['fair-leave'] = function()
    local removed = redis.call('lrem', KEYS[3], 0, ARGV[1])
    redis.call('del', KEYS[4] .. ARGV[1])
    if removed > 0 and redis.call('exists', KEYS[1]) == 0 then
        wake_fair_head(KEYS[3], KEYS[4], KEYS[2], ARGV[2])
    end
    return removed > 0 and 1 or 0
end

-- What the releases of an exclusive lock (reentrant and fair) share: a resent request gets the
-- answer the first one got; the caller removes the lock of an owner that holds it.
-- KEYS[3] the owner's release latch; ARGV[1] owner, ARGV[2] latch lifetime ms, ARGV[4] this
-- release request's id
-- current: the lock's value; released: what this request answers when it releases the lock
-- returns nil when this request releases the lock now, else the answer to give
local function begin_release(current, released)
    local mine = owned_by(current, ARGV[1])
    local earlier = answered_before(KEYS[3], ARGV[4], mine and released or -1, ARGV[2])
    if earlier then
        return earlier
    end
    if not mine then
        return -1
    end
    return nil
end

-- release: the last hold of an owner on the reentrant lock ends. When processes wait in the
-- ring, the lock is offered to the first of them that still listens, reserved for its process
-- for as long as a lease at most, and only that process is told; the offer records when it was
-- made (ARGV[7], the releasing process's clock, for describe: a TIME call here would cost every
-- hand-off a command); the releaser's process may stay in the ring, at its end, if it
-- listens too (its threads come back soon, or it has waiters of its own). Otherwise the lock is
-- deleted, and the waiters that asked for '*' are woken.
-- KEYS[1] lock, KEYS[2] release channel, KEYS[3] the owner's release latch
-- ARGV[1] owner, ARGV[2] latch lifetime ms, ARGV[3] publish command, ARGV[4] request id,
-- ARGV[5] how long an offer keeps the lock for its process, ms, or '' to offer to nobody (RedLock),
-- ARGV[6] '1' to keep the owner's process in the ring, ARGV[7] the releasing process's time, ms
-- returns 0 when released, 1 when released and offered to another process, -1 when the owner
-- held nothing (lost)
function ops.release()
    local current = redis.call('get', KEYS[1])
    local mark, _, token, _, _, ring = exclusive_fields(current or '')
    local offers = ARGV[5] ~= '' and ring ~= nil and ring ~= ''
    local answer = begin_release(current, offers and 1 or 0)
    if answer then
        return answer
    end
    if offers then
        local self = manager_of(ARGV[1])
        local target, rest = offer_to_ring(KEYS[2], ARGV[3], ring, 'o' .. token .. '.0', self)
        if target then
            if ARGV[6] ~= '' then
                rest = join_ring(rest, self)
            end
            redis.call('set', KEYS[1], exclusive_value('r', target, token, 0, ARGV[7] or '', rest, ''), 'px', ARGV[5])
            return 1
        end
        -- Nobody in the ring listens any more: a plain release after all, and a resend says so.
        redis.call('set', KEYS[3], ARGV[4] .. '|0', 'px', ARGV[2])
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
-- KEYS[1] lock, KEYS[2] release channel
-- ARGV[1] the offer token, or '' for any, ARGV[2] the offer number, or '' for any,
-- ARGV[3] the manager offered to, or '' for any, ARGV[4] publish command,
-- ARGV[5] how long the next offer keeps the lock, ms,
-- ARGV[6] '' to pass it on, or the command counting a channel's listeners (pubsub numsub or
-- shardnumsub) to pass it on only when its process no longer listens, ARGV[7] the sender's time, ms,
-- ARGV[8] '1' to withdraw the offer instead of passing it on: its releaser closes, and an offer
-- passed on now would have nobody to watch it, so the lock is freed and everyone woken to ask
-- (a process about to take the offer finds the lock free and takes it)
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
        taker, rest = offer_to_ring(KEYS[2], ARGV[4], ring, 'o' .. token .. '.' .. next_number, target)
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

-- keep: the last hold of an owner on the reentrant or fair lock ends before its minimum hold has
-- passed (a job that returned early): instead of being deleted, the lock stays taken, by nobody
-- (mark 'k', which no owner holds and no acquisition takes), for what is left of the minimum hold,
-- and then expires. Waiters wait for its time to live, as for any holder's lease; everyone a
-- release would wake is woken once to learn it (processes in the ring, waiters that asked for '*',
-- the head of the fair queue), as the kept lock is offered to nobody and now ends sooner.
-- The latch is written first, as by release: a script that fails after it leaves the lock held
-- by the owner until its own lease runs out, never freed early; a retry answers what the first
-- copy would have.
-- KEYS[1] lock, KEYS[2] release channel, KEYS[3] the owner's release latch, KEYS[4] fair queue,
-- KEYS[5] fair place prefix
-- ARGV[1] owner, ARGV[2] latch lifetime ms, ARGV[3] how long to keep the lock, ms, ARGV[4] request id,
-- ARGV[5] publish command
-- returns 0 when kept, -1 when the owner held nothing (lost)
function ops.keep()
    local current = redis.call('get', KEYS[1])
    local answer = begin_release(current, 0)
    if answer then
        return answer
    end
    local mark, owner, token, _, since, ring, thread = exclusive_fields(current)
    redis.call('set', KEYS[1], exclusive_value('k', owner, token, 0, since, '', thread), 'xx', 'px', ARGV[3])
    wake_fair_head(KEYS[4], KEYS[5], KEYS[2], ARGV[5])
    if ring ~= '' or mark == 'W' or mark == 'F' then
        wake(ARGV[5], KEYS[2], '*')
    end
    return 0
end

-- last-run: remembers how the latest run of a job ended, for describe, and keeps it in the job's
-- short list of recent runs, newest first. One string and one list per job name (the lock's own,
-- or a job named apart from its per-slot locks), overwritten or trimmed by every run, and
-- expiring with the fencing counter's lifetime after the job's last run. Safe to repeat: a retry
-- after a failure halfway (or a resent request) finds its record in the list already and does
-- not push it twice, and never puts an older run over a newer one as the latest (the record
-- begins with the run's start and holds its fencing token, so two runs never write the same one).
-- KEYS[1] the job's last-run key, KEYS[2] the job's list of recent runs
-- ARGV[1] '<started ms>|<took ms>|<outcome>|<fencing token>|<error class or empty>|<thread>|<lock>|<slot ms or empty>|<process>',
-- ARGV[2] their lifetime ms, ARGV[3] how many recent runs to keep
-- returns 1
ops['last-run'] = function()
    local started = tonumber(string.match(ARGV[1], '^(%d+)'))
    local latest = redis.call('get', KEYS[1])
    if not latest or (tonumber(string.match(latest, '^(%d+)')) or 0) <= started then
        redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
    end
    local recent = redis.call('lrange', KEYS[2], 0, -1)
    local listed = false
    for _, record in ipairs(recent) do
        if record == ARGV[1] then
            listed = true
        end
    end
    if not listed then
        redis.call('lpush', KEYS[2], ARGV[1])
    end
    redis.call('ltrim', KEYS[2], 0, tonumber(ARGV[3]) - 1)
    redis.call('pexpire', KEYS[2], ARGV[2])
    return 1
end

-- recent-runs: the short list of a job's recent runs, newest first, for describeJob; nothing is
-- written.
-- KEYS[1] the job's list of recent runs
-- returns the records, each as last-run writes it
ops['recent-runs'] = function()
    return redis.call('lrange', KEYS[1], 0, -1)
end

-- hand-over: the last hold of an owner on the reentrant lock passes straight to an owner of the
-- same process that waits for it, with a new fencing token: one call instead of a release, a
-- wake-up and an acquisition. The lock stays taken, so nobody is woken; waiters elsewhere that
-- asked to be woken stay asked (the mark is kept). The owner's release latch keeps the answer,
-- written last: a script that fails before it leaves the lock either still the owner's (a retry
-- hands it over) or the taker's (a retry reports the hold gone, and the taker finds its grant).
-- KEYS[1] lock, KEYS[2] fencing counter, KEYS[3] the owner's release latch
-- ARGV[1] owner, ARGV[2] the owner that takes over, ARGV[3] its lease ms, ARGV[4] since ms,
-- ARGV[5] its thread name, ARGV[6] counter lifetime ms, ARGV[7] latch lifetime ms, ARGV[8] request id
-- returns the fencing token of the owner that took over, or -1 when the owner held nothing (lost)
ops['hand-over'] = function()
    local current = redis.call('get', KEYS[1])
    if not owned_by(current, ARGV[1]) then
        -- A resent request (the reply to the first was lost) gets the first one's answer.
        local earlier = redis.call('get', KEYS[3])
        if earlier and string.sub(earlier, 1, #ARGV[8] + 1) == ARGV[8] .. '|' then
            return tonumber(string.sub(earlier, #ARGV[8] + 2))
        end
        return -1
    end
    local token = next_token(KEYS[2], ARGV[6])
    local mark, _, _, _, _, ring = exclusive_fields(current)
    redis.call('set', KEYS[1], exclusive_value(mark, ARGV[2], token, 1, ARGV[4], ring, ARGV[5]), 'px', ARGV[3])
    redis.call('set', KEYS[3], ARGV[8] .. '|' .. string.format('%d', token), 'px', ARGV[7])
    return token
end

-- fair-release: the last hold of an owner on the fair lock ends; the head of the queue that still
-- listens is woken (see wake_fair_head), and only it asks Redis again.
-- KEYS[1] lock, KEYS[2] release channel, KEYS[3] the owner's release latch, KEYS[4] queue,
-- KEYS[5] the start of each waiter's place key
-- ARGV[1] owner, ARGV[2] latch lifetime ms, ARGV[3] publish command, ARGV[4] request id
-- returns 0 when released, -1 when the owner held nothing (lost)
ops['fair-release'] = function()
    local current = redis.call('get', KEYS[1])
    local answer = begin_release(current, 0)
    if answer then
        return answer
    end
    redis.call('del', KEYS[1])
    local head = wake_fair_head(KEYS[4], KEYS[5], KEYS[2], ARGV[3])
    local mark = string.sub(current, 1, 1)
    if mark == 'F' or mark == 'w' or mark == 'W' or (not head and mark ~= 'f') then
        wake(ARGV[3], KEYS[2], '*')
    end
    return 0
end

-- hold-count: an owner entered its reentrant or fair hold again, or left one of several; the
-- lock keeps the new count (for inspection), and its lease grows to at least the given one.
-- Setting an absolute count makes a resent request harmless.
-- KEYS[1] lock
-- ARGV[1] owner, ARGV[2] the owner's hold count now, ARGV[3] lease ms to keep at least, or ''
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

-- The read/write lock's state, read in one pass over the hash. With a time (acquisitions),
-- holders whose expiry passed and writers whose wait lapsed are left out, and removed.
-- Without one (releases), every entry counts: an expired hold still in the hash means that
-- nobody has entered against it since, for whoever enters removes it first.
local function rw_state(hash, now)
    local state = {writer = nil, readers = 0, waiting = 0, fields = {}, expiry = {}, soonest = nil, latest = 0,
                   flag = false, ring = '', offer = nil, offered_to = nil, offer_taken = false}
    local raw = redis.call('hgetall', hash)
    for i = 1, #raw, 2 do
        if string.sub(raw[i], 1, 2) == 'e:' then
            state.expiry[string.sub(raw[i], 3)] = tonumber(raw[i + 1])
        end
    end
    local expired = {}
    for i = 1, #raw, 2 do
        local field, value = raw[i], raw[i + 1]
        local kind, who = string.sub(field, 1, 2), string.sub(field, 3)
        local live = (now == nil) or ((kind == 'q:' and tonumber(value) or state.expiry[who] or 0) > now)
        if kind == 'q:' or kind == 'e:' or kind == 'r:' or kind == 'w:' then
            if not live then
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
    if #expired > 0 then
        redis.call('hdel', hash, unpack(expired))
    end
    return state
end

-- Grants the hold. A writer that takes the offer to its process empties the offer in the same
-- HSET (x = '' until the release: the offer was taken), which saves a command on every hand-off.
local function rw_grant(hash, field, owner, lease, now, state, waited, takes_offer)
    local token = next_token(KEYS[2], ARGV[3])
    if waited then
        redis.call('hdel', hash, 'q:' .. owner)
    end
    local expiry = math.max(now + lease, state.expiry[owner] or 0)
    local hold = string.format('%d', token) .. '|' .. ARGV[4] .. '|' .. ARGV[5]
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
-- writer of the process it is offered to.
-- KEYS[1] read/write hash, KEYS[2] fencing counter
-- ARGV[1] owner, ARGV[2] lease ms, ARGV[3] counter lifetime ms, ARGV[4] since ms, ARGV[5] thread name,
-- ARGV[6] '1' for a writer to join the ring when it has to wait, '' to ask for '*' instead
-- returns {1, fencing token} when acquired, {0, ms until something may change[, 1 when the
-- owner's process is in the ring]} otherwise
local function rw_acquire(read)
    local hash, owner, lease = KEYS[1], ARGV[1], tonumber(ARGV[2])
    local field = (read and 'r:' or 'w:') .. owner
    local now = now_ms()
    local state = rw_state(hash, now)
    if state.fields[field] then
        -- A retried request finds its own grant.
        return {1, tonumber(string.match(state.fields[field], '^(%d+)'))}
    end
    local waited = state.fields['q:' .. owner] ~= nil
    local manager = manager_of(owner)
    local joined = nil
    if read then
        if state.writer == owner or (state.writer == nil and state.waiting == 0 and not state.offer) then
            return rw_grant(hash, field, owner, lease, now, state, false, false)
        end
        if not state.flag then
            redis.call('hset', hash, 'f', 1)
        end
    else
        if state.writer == nil and state.readers == 0 and (not state.offer or state.offered_to == manager) then
            return rw_grant(hash, field, owner, lease, now, state, waited, state.offer ~= nil)
        end
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

ops['acquire-read'] = function() return rw_acquire(true) end
ops['acquire-write'] = function() return rw_acquire(false) end

-- release-read / release-write: the last hold of an owner on one side ends. When that frees the
-- lock and processes wait in the ring to write, it is offered to the first of them that listens,
-- as the exclusive lock's release does; waiting readers are woken with '*' as before. The offer
-- records when it was made by the releasing process's clock (ARGV[7]), not the server's: a TIME
-- call would cost every write hand-off one more command than its budget (CallsPerCycleTest).
-- KEYS[1] read/write hash, KEYS[2] release channel, KEYS[3] the owner's release latch
-- ARGV[1] owner, ARGV[2] latch lifetime ms, ARGV[3] publish command, ARGV[4] request id,
-- ARGV[5] '' to offer to nobody (RedLock), else anything (the offer lasts as long as the hash),
-- ARGV[6] '1' to keep the owner's process in the ring, ARGV[7] the releasing process's time, ms
-- returns 0 when released, 1 when released and offered to a waiting process, -1 when the owner
-- held nothing (lost)
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
    local earlier = answered_before(KEYS[3], ARGV[4], mine and (offers and 1 or 0) or -1, ARGV[2])
    if earlier then
        return earlier
    end
    if not mine then
        return -1
    end
    local offered = false
    local ended = {field}
    if offers then
        local self = manager_of(owner)
        local token = string.match(state.fields[field], '^(%d+)')
        local target, rest, gone = offer_to_ring(KEYS[2], ARGV[3], state.ring, 'o' .. token .. '.0', self)
        drop_writer_marks(hash, gone)
        if target and ARGV[6] ~= '' then
            rest = join_ring(rest, self)
        end
        local offer_fields = {}
        if target then
            offer_fields = {'x', target .. '|' .. token .. '|0|' .. (ARGV[7] or '')}
            offered = true
        else
            redis.call('set', KEYS[3], ARGV[4] .. '|0', 'px', ARGV[2])
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

ops['release-read'] = function() return rw_release(true) end
ops['release-write'] = function() return rw_release(false) end

-- rw-pass-offer: pass-offer for the write side of the read/write lock: an offer its process did
-- not take moves on to the next process of the ring that listens, and the writer marks of the
-- process passed over go (readers no longer wait for it); with nobody left, everyone is woken.
-- The offer passed on records when (ARGV[7], the sender's clock).
-- KEYS[1] read/write hash, KEYS[2] release channel
-- ARGV as pass-offer's (ARGV[5] unused: the offer lasts as long as the hash)
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
    local taker, rest = nil, redis.call('hget', KEYS[1], 'o') or ''
    if ARGV[8] ~= '1' then
        local gone
        taker, rest, gone = offer_to_ring(KEYS[2], ARGV[4], rest, 'o' .. token .. '.' .. next_number, target)
        table.insert(gone, target)
        drop_writer_marks(KEYS[1], gone)
    end
    if taker then
        redis.call('hset', KEYS[1], 'x', taker .. '|' .. token .. '|' .. next_number .. '|' .. (ARGV[7] or ''))
    else
        redis.call('hdel', KEYS[1], 'x')
    end
    if rest ~= '' then
        redis.call('hset', KEYS[1], 'o', rest)
    else
        redis.call('hdel', KEYS[1], 'o')
    end
    if taker then
        return next_number
    end
    wake(ARGV[4], KEYS[2], '*')
    return -1
end

-- give-up-write: a writer stopped waiting (timed out, interrupted); readers held back for it may go.
-- KEYS[1] read/write hash, KEYS[2] release channel
-- ARGV[1] owner, ARGV[2] publish command
-- returns 1 when the writer was waiting, 0 when it was not
ops['give-up-write'] = function()
    if redis.call('hdel', KEYS[1], 'q:' .. ARGV[1]) == 0 then
        return 0
    end
    if redis.call('hlen', KEYS[1]) <= 1 and redis.call('hexists', KEYS[1], 'f') == 1 then
        redis.call('del', KEYS[1])
    end
    wake(ARGV[2], KEYS[2], '*')
    return 1
end

-- rw-hold: an owner entered one side of the read/write lock again; its lease grows to at least
-- the given one.
-- KEYS[1] read/write hash
-- ARGV[1] the owner's hold field (r:<owner> or w:<owner>), ARGV[2] the owner's expiry field,
-- ARGV[3] lease ms to keep at least
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

-- renew: extends, in one call, the lease of many holds (any kind) the watchdog keeps, or that a
-- transaction confirms before it commits.
-- KEYS[1..n] lock keys
-- ARGV[1] lease ms; then for each KEYS[i]: ARGV[2i] the owner (an exclusive lock) or its hold
-- field (read/write), ARGV[2i+1] '' (an exclusive lock) or the owner's expiry field (read/write)
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
-- KEYS[1] lock, KEYS[2] release channel
-- ARGV[1] the owner (exclusive) or its hold field (read/write), ARGV[2] '' or the owner's expiry
-- field, ARGV[3] publish command
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
-- KEYS[1] lock, KEYS[2] release channel
-- ARGV[1] publish command
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

-- raise-fence: raises a fencing counter to at least a token handed out elsewhere (RedLock: every
-- master learns the largest token, so any later majority includes a master that knows it).
-- KEYS[1] fencing counter
-- ARGV[1] token, ARGV[2] counter lifetime ms
-- returns the counter's value afterwards
ops['raise-fence'] = function()
    local current = tonumber(redis.call('get', KEYS[1]) or '0')
    local token = tonumber(ARGV[1])
    if current < token then
        redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
        return token
    end
    return current
end

-- access: which commands Locksmith sends (from its scripts and directly) this user may not run
-- on Locksmith's keys and channels; nothing is written.
-- KEYS[1] a lock, KEYS[2] its fencing counter, KEYS[3] its read/write hash, KEYS[4] its fair
-- queue, KEYS[5] a fair waiter's place, KEYS[6] a release latch, KEYS[7] a job's list of recent runs
-- ARGV[1] its release channel, ARGV[2] 'sharded' in a cluster, else '', ARGV[3] '1' when
-- acquisitions wait for replicas, else ''
-- returns the refused commands, each as 'command key-or-channel'
ops.access = function()
    if redis.acl_check_cmd == nil then
        return {'Redis 7.0 or newer (this server has no ACL checks for scripts)'}
    end
    local lock, fence, rw, queue, place, latch = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
    local runs = KEYS[7]
    local channel = ARGV[1]
    local publish = ARGV[2] == 'sharded' and 'spublish' or 'publish'
    local subscribe = ARGV[2] == 'sharded' and 'ssubscribe' or 'subscribe'
    local unsubscribe = ARGV[2] == 'sharded' and 'sunsubscribe' or 'unsubscribe'
    local needed = {
        {'evalsha', '0000000000000000000000000000000000000000', '1', lock}, {'eval', 'return 1', '1', lock},
        {'time'}, {'ping'},
        {'get', lock}, {'set', lock, 'v'}, {'del', lock}, {'pexpire', lock, '1'}, {'pttl', lock},
        {'setrange', lock, '0', 'w'}, {'exists', lock},
        {'incr', fence}, {'set', fence, '1'}, {'get', fence},
        {'hgetall', rw}, {'hset', rw, 'f', '1'}, {'hdel', rw, 'f'}, {'hexists', rw, 'f'}, {'hget', rw, 'f'},
        {'hlen', rw}, {'hkeys', rw}, {'pexpire', rw, '1'}, {'pttl', rw}, {'del', rw},
        {'lindex', queue, '0'}, {'lpop', queue}, {'rpush', queue, 'o'}, {'lrem', queue, '0', 'o'}, {'llen', queue},
        {'pubsub', ARGV[2] == 'sharded' and 'shardnumsub' or 'numsub', channel},
        {'pexpire', queue, '1'},
        {'set', place, '1'}, {'del', place}, {'exists', place}, {'pttl', place},
        {'set', latch, '0'}, {'get', latch},
        {'lpush', runs, 'r'}, {'ltrim', runs, '0', '9'}, {'pexpire', runs, '1'},
        {'lrange', runs, '0', '-1'},
        {publish, channel, '*'}, {subscribe, channel}, {unsubscribe, channel},
        {publish, channel .. ':m:', 'o1.0'}, {subscribe, channel .. ':m:'}, {unsubscribe, channel .. ':m:'},
    }
    if ARGV[3] == '1' then
        table.insert(needed, {'wait', '1', '0'})
    end
    local refused = {}
    for _, command in ipairs(needed) do
        if not redis.acl_check_cmd(unpack(command)) then
            table.insert(refused, command[1] .. (command[2] and (' ' .. command[2]) or ''))
        end
    end
    return refused
end

-- manager: publishes (or, with an empty description, withdraws) how a manager describes itself to
-- other processes: host, process id, application; LockManager.describe shows it for each holder.
-- KEYS[1] the manager's key
-- ARGV[1] the description or '', ARGV[2] its lifetime ms
-- returns 1
ops.manager = function()
    if ARGV[1] == '' then
        redis.call('del', KEYS[1])
    else
        redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
    end
    return 1
end

-- inspect: who holds a lock of any kind and how many wait, for LockManager.describe; nothing is
-- written.
-- KEYS[1] the exclusive lock, KEYS[2] its read/write hash, KEYS[3] its fair queue, KEYS[4] its
-- last-run record
-- ARGV[1] its release channel, ARGV[2] 'sharded' in a cluster, else '', ARGV[3] its read/write
-- lock's release channel
-- returns lines 'holder|<mode>|<owner>|<fencing token>|<hold count>|<since ms>|<lease left ms>|<thread>'
-- (mode exclusive, fair, kept, read or write; hold count 0 when Redis does not keep it),
-- 'offer|<mode>|<manager id>:|<offer number>|<offered ms>|<reservation left ms>' for a lock nobody
-- holds that stands offered to that manager's process (mode exclusive or write; offered ms empty
-- when an older version made the offer), 'waiting|<queued>|<subscribed processes>' and, if there
-- is one, 'last-run|<record>' (see last-run)
ops.inspect = function()
    local now = now_ms()
    local lines = {}
    local value = redis.call('get', KEYS[1])
    local mark, owner, token, count, since, ring, thread
    if value then
        mark, owner, token, count, since, ring, thread = exclusive_fields(value)
    end
    local ring_size = 0
    if ring and ring ~= '' then
        local _, commas = string.gsub(ring, ',', '')
        ring_size = commas - 1
    end
    if mark == 'r' then
        table.insert(lines, table.concat({'offer', 'exclusive', owner, count, since, redis.call('pttl', KEYS[1])}, '|'))
    elseif mark then
        local mode = (mark == 'f' or mark == 'F') and 'fair' or (mark == 'k' and 'kept' or 'exclusive')
        table.insert(lines, table.concat({'holder', mode, owner, token, count, since, redis.call('pttl', KEYS[1]),
            thread}, '|'))
    end
    local raw = redis.call('hgetall', KEYS[2])
    local expiry, queued = {}, redis.call('llen', KEYS[3]) + ring_size
    for i = 1, #raw, 2 do
        if string.sub(raw[i], 1, 2) == 'e:' then
            expiry[string.sub(raw[i], 3)] = tonumber(raw[i + 1])
        end
    end
    for i = 1, #raw, 2 do
        local kind, who = string.sub(raw[i], 1, 2), string.sub(raw[i], 3)
        if (kind == 'r:' or kind == 'w:') and (expiry[who] or 0) > now then
            local token, since, thread = string.match(raw[i + 1], '^(%d+)|?(%d*)|?(.*)$')
            table.insert(lines, table.concat({'holder', kind == 'r:' and 'read' or 'write', who, token, 0, since,
                expiry[who] - now, thread}, '|'))
        elseif kind == 'q:' and tonumber(raw[i + 1]) > now then
            queued = queued + 1
        elseif raw[i] == 'x' and write_offer_fields(raw[i + 1]) then
            local offered_to, _, number, offered_at = write_offer_fields(raw[i + 1])
            table.insert(lines, table.concat({'offer', 'write', offered_to, number, offered_at,
                redis.call('pttl', KEYS[2])}, '|'))
        end
    end
    local subscribed = redis.call('pubsub', ARGV[2] == 'sharded' and 'shardnumsub' or 'numsub', ARGV[1], ARGV[3])
    table.insert(lines, 'waiting|' .. queued .. '|' .. (subscribed[2] + subscribed[4]))
    local last_run = redis.call('get', KEYS[4])
    if last_run then
        table.insert(lines, 'last-run|' .. last_run)
    end
    return lines
end
