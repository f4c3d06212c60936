-- What operators and scheduled jobs read and write beside the locks: a lock name's fencing
-- counter raised by hand, a job's last run and recent runs, the permission check, a manager's
-- description, and the inspection of a lock.

-- The one reader of a job's run record in Lua (RunRecordFormat writes and reads it in Java): when
-- the run started, epoch ms, the record's first field.
local function run_started(record)
    return tonumber(string.match(record, '^(%d+)'))
end

-- last-run: remembers how the latest run of a job ended, for describe, and keeps it in the job's
-- short list of recent runs, newest first. One string and one list per job name (the lock's own,
-- or a job named apart from its per-slot locks), overwritten or trimmed by every run, and
-- expiring with the fencing counter's lifetime after the job's last run. Safe to repeat: a retry
-- after a failure halfway (or a resent request) finds its record in the list already and does
-- not push it twice, and never puts an older run over a newer one as the latest (the record
-- begins with the run's start and holds its fencing token, so two runs never write the same one).
-- KEYS[1] last-run: the job's last-run key
-- KEYS[2] runs: the job's list of recent runs
-- ARGV[1] record: the run, '<started ms>|<took ms>|<outcome>|<fencing token>|<error class or
--     empty>|<thread>|<lock>|<slot ms or empty>|<process>'
-- ARGV[2] lifetime: their lifetime, ms
-- ARGV[3] recent: how many recent runs to keep
-- returns 1
ops['last-run'] = function()
    local started = run_started(ARGV[1])
    local latest = redis.call('get', KEYS[1])
    if not latest or (run_started(latest) or 0) <= started then
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
-- KEYS[1] runs: the job's list of recent runs
-- returns the records, each as last-run writes it
ops['recent-runs'] = function()
    return redis.call('lrange', KEYS[1], 0, -1)
end

-- raise-fence: raises a fencing counter to at least a token handed out elsewhere (RedLock: every
-- master learns the largest token, so any later majority includes a master that knows it).
-- KEYS[1] fence: the fencing counter
-- ARGV[1] token: the token to raise it to
-- ARGV[2] fence-life: the fencing counter's lifetime, ms
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
-- KEYS[1] lock: a lock
-- KEYS[2] fence: its fencing counter
-- KEYS[3] rw-lock: its read/write hash
-- KEYS[4] queue: its fair queue
-- KEYS[5] place: a fair waiter's place
-- KEYS[6] latch: a release latch
-- KEYS[7] runs: a job's list of recent runs
-- ARGV[1] channel: its release channel
-- ARGV[2] sharded: 'sharded' in a cluster, else ''
-- ARGV[3] replicas: '1' when acquisitions wait for replicas, else ''
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
-- KEYS[1] manager: the manager's key
-- ARGV[1] description: the description, or '' to withdraw it
-- ARGV[2] lifetime: its lifetime, ms
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
-- KEYS[1] lock: the exclusive lock
-- KEYS[2] rw-lock: its read/write hash
-- KEYS[3] queue: its fair queue
-- KEYS[4] last-run: its last-run record
-- ARGV[1] channel: its release channel
-- ARGV[2] sharded: 'sharded' in a cluster, else ''
-- ARGV[3] rw-channel: its read/write lock's release channel
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
            local token, since, thread = rw_hold_fields(raw[i + 1])
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
