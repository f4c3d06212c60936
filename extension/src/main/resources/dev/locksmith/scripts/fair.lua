-- The fair lock: the exclusive lock's value (exclusive.lua) with marks 'f' and 'F', and a queue
-- of waiting owners that its releases serve in order.

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

-- fair-acquire: first hold of an owner on the fair lock, granted only to the head of the queue
-- (or to anyone when nobody queues); everyone else joins the queue, or refreshes its place.
-- KEYS[1] lock: the lock
-- KEYS[2] fence: the fencing counter
-- KEYS[3] queue: the queue (list of owners)
-- KEYS[4] places: the start of each waiter's place key (<KEYS[4]><owner> lives as long as the place)
-- ARGV[1] owner: the owner id
-- ARGV[2] lease: lease ms
-- ARGV[3] since: since when the owner holds it, ms
-- ARGV[4] thread: the holding thread's name
-- ARGV[5] fence-life: the fencing counter's lifetime, ms
-- ARGV[6] patience: how long a waiter keeps its place without asking again, ms
-- returns {1, fencing token} when acquired, {0, ms until something may change} otherwise
ops['fair-acquire'] = function()
    local owner, lease, patience = ARGV[1], ARGV[2], ARGV[6]
    local current = redis.call('get', KEYS[1])
    if current and owned_by(current, owner) then
        -- The owner's own hold (see acquire): taken afresh, with a new token and a whole lease.
        local token = next_token(KEYS[2], ARGV[5])
        local mark, _, _, _, _, ring = exclusive_fields(current)
        redis.call('set', KEYS[1], exclusive_value(mark, owner, token, '1', ARGV[3], ring, ARGV[4]), 'px', lease)
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
            redis.call('set', KEYS[1], exclusive_value('f', owner, token, '1', ARGV[3], '', ARGV[4]), 'px', lease)
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
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- KEYS[3] queue: the queue
-- KEYS[4] places: the start of each waiter's place key
-- ARGV[1] owner: the owner id
-- ARGV[2] publish: the publish command
-- returns 1 when the owner was queued, 0 when it was not
ops['fair-leave'] = function()
    local removed = redis.call('lrem', KEYS[3], 0, ARGV[1])
    redis.call('del', KEYS[4] .. ARGV[1])
    if removed > 0 and redis.call('exists', KEYS[1]) == 0 then
        wake_fair_head(KEYS[3], KEYS[4], KEYS[2], ARGV[2])
    end
    return removed > 0 and 1 or 0
end

-- fair-release: the last hold of an owner on the fair lock ends; the head of the queue that still
-- listens is woken (see wake_fair_head), and only it asks Redis again.
-- KEYS[1] lock: the lock
-- KEYS[2] channel: the release channel
-- KEYS[3] latch: the owner's release latch
-- KEYS[4] queue: the queue
-- KEYS[5] places: the start of each waiter's place key
-- ARGV[1] owner: the owner id
-- ARGV[2] latch-life: the latch's lifetime, ms
-- ARGV[3] publish: the publish command
-- ARGV[4] request: this release request's id
-- returns 0 when released, -1 when the owner held nothing (lost)
ops['fair-release'] = function()
    local current = redis.call('get', KEYS[1])
    local answer = begin_release(current, '0')
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
