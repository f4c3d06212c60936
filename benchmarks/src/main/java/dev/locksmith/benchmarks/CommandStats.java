package dev.locksmith.benchmarks;

import dev.locksmith.testing.RedisNode;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What Redis itself executed while the cycles were counted, from {@code INFO commandstats}:
 * calls and server microseconds per command. Redis counts the commands a script runs as well as
 * the script call, so one EVALSHA of a three-command script shows as four calls.
 *
 * @param calls     calls per command name ({@code evalsha}, {@code hset}, ...)
 * @param micros    microseconds Redis spent executing each command name
 * @param cpuMicros CPU microseconds of the whole redis-server process (network I/O and event
 *                  loop included), user and system
 */
record CommandStats(Map<String, Long> calls, Map<String, Long> micros, long cpuMicros) {
    /** The harness's own housekeeping, not the contenders'. */
    private static final Set<String> HOUSEKEEPING = Set.of("config|resetstat", "info", "flushall");
    private static final String PREFIX = "cmdstat_";
    private static final Set<String> SCRIPT_CALLS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");

    CommandStats {
        calls = Collections.unmodifiableMap(new TreeMap<>(calls));
        micros = Collections.unmodifiableMap(new TreeMap<>(micros));
    }

    /**
     * Zeroes the server's command counters.
     *
     * @return the server's CPU microseconds so far, for {@link #read}
     */
    static long reset(RedisNode redis) {
        redis.command("CONFIG", "RESETSTAT");
        return cpuMicros(redis);
    }

    /**
     * @param cpuAtReset what {@link #reset} returned
     * @return the counters since that reset
     */
    static CommandStats read(RedisNode redis, long cpuAtReset) {
        long cpu = cpuMicros(redis) - cpuAtReset;
        Map<String, Long> calls = new TreeMap<>();
        Map<String, Long> micros = new TreeMap<>();
        for (String line : redis.command("INFO", "commandstats").split("\r?\n")) {
            if (!line.startsWith(PREFIX)) {
                continue;
            }
            String name = line.substring(PREFIX.length(), line.indexOf(':'));
            if (HOUSEKEEPING.contains(name)) {
                continue;
            }
            for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                String[] pair = field.split("=");
                if (pair[0].equals("calls")) {
                    calls.put(name, Long.parseLong(pair[1]));
                } else if (pair[0].equals("usec")) {
                    micros.put(name, Long.parseLong(pair[1]));
                }
            }
        }
        return new CommandStats(calls, micros, cpu);
    }

    private static long cpuMicros(RedisNode redis) {
        double seconds = 0;
        for (String line : redis.command("INFO", "cpu").split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return Math.round(seconds * 1_000_000);
    }

    /**
     * @return all calls, scripts and the commands inside them alike
     */
    long totalCalls() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return microseconds Redis spent running scripts, the commands inside them included (those
     *         are also listed under their own names, so summing every command would count them twice)
     */
    long scriptMicros() {
        return micros.entrySet().stream()
                .filter(entry -> SCRIPT_CALLS.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
    }
}
