package dev.locksmith.it.faults;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The shared resource of the fault run: a store on a Redis server of its own (never faulted)
 * that accepts a write only if its fencing token is no lower than the highest it accepted for
 * that name, and records every accepted write in order, as a storage service that checks
 * fencing tokens would. Equal tokens are the same hold writing again.
 */
final class FencedResource {
    private static final String WRITE = """
            local highest = tonumber(redis.call('get', KEYS[1]) or '0')
            local token = tonumber(ARGV[1])
            if token < highest then
                redis.call('incr', KEYS[3])
                return 0
            end
            redis.call('set', KEYS[1], ARGV[1])
            redis.call('rpush', KEYS[2], ARGV[1] .. ' ' .. ARGV[2])
            return 1
            """;

    private FencedResource() {
    }

    /**
     * @param redis  the resource's store
     * @param name   the lock name the write is under
     * @param token  the writer's fencing token
     * @param writer who writes, for the record
     * @return true if accepted, false if rejected as stale
     */
    static boolean write(RedisCommands<String, String> redis, String name, long token, String writer) {
        Long accepted = redis.eval(WRITE, ScriptOutputType.INTEGER,
                new String[] {highestKey(name), logKey(name), staleKey(name)}, Long.toString(token), writer);
        return accepted == 1;
    }

    static String highestKey(String name) {
        return "resource:" + name + ":highest";
    }

    /**
     * @return the list of accepted writes, each {@code "<token> <writer>"}, in the order accepted
     */
    static String logKey(String name) {
        return "resource:" + name + ":log";
    }

    /**
     * @return the counter of writes rejected as stale
     */
    static String staleKey(String name) {
        return "resource:" + name + ":stale";
    }
}
