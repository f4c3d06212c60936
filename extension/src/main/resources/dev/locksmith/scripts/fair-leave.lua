-- A waiter gives up (timed out, interrupted): it leaves the queue at once, and if the lock is
-- free the new head is woken in its place.
-- KEYS[1] lock hash, KEYS[2] release channel, KEYS[3] queue, KEYS[4] queue deadlines
-- ARGV[1] owner id, ARGV[2] publish command (publish or spublish)
-- returns 1 when the owner was queued, 0 when it was not
local removed = redis.call('lrem', KEYS[3], 0, ARGV[1])
redis.call('zrem', KEYS[4], ARGV[1])
if removed > 0 and redis.call('exists', KEYS[1]) == 0 then
    local head = redis.call('lindex', KEYS[3], 0)
    if head then
        redis.call(ARGV[2], KEYS[2], head)
    end
end
return removed > 0 and 1 or 0
