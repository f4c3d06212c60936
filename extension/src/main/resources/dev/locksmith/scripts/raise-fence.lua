-- Raises a fencing counter to at least a token handed out elsewhere (RedLock: every master
-- learns the largest token, so any later majority includes a master that knows it).
-- KEYS[1] fencing counter
-- ARGV[1] token
-- returns the counter's value afterwards
local current = tonumber(redis.call('get', KEYS[1]) or '0')
local token = tonumber(ARGV[1])
if current < token then
    redis.call('set', KEYS[1], token, 'px', 86400000)
    return token
end
return current
