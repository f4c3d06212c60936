package dev.locksmith.benchmarks;

import dev.locksmith.testing.RedisNode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What Redis itself executed while the cycles were counted, from {@code INFO commandstats}:
 * calls and server microseconds per command. Redis counts the commands a script runs as well as
 * the script call, so one EVALSHA of a three-command script shows as four calls. A scenario on
 * several servers (RedLock) gets the sum over all of them.
 *
 * @param calls     calls per command name ({@code evalsha}, {@code hset}, ...)
 * @param micros    microseconds Redis spent executing each command name
 * @param cpuMicros CPU microseconds of the whole redis-server process (network I/O and event
 *                  loop included), user and system
 */
record CommandStats(Map<String, Long> calls, Map<String, Long> micros, long cpuMicros) {
    /**
     * Not the measured contender's lock work: the harness's own housekeeping, and PING, which the
     * idle connections of the contender not being measured send as well (Redisson checks each
     * pooled connection every 30 s: 32 idle clients added 0.04-0.3 calls to each Locksmith cycle).
     */
    private static final Set<String> HOUSEKEEPING = Set.of("config|resetstat", "info", "flushall", "ping");
    private static final String PREFIX = "cmdstat_";
    private static final Set<String> SCRIPT_CALLS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");

    CommandStats {
        calls = Collections.unmodifiableMap(new TreeMap<>(calls));
        micros = Collections.unmodifiableMap(new TreeMap<>(micros));
    }

    /**
     * Zeroes the command counters of every server.
     *
     * @return each server's CPU microseconds so far, for {@link #read}
     */
    static long[] reset(List<RedisNode> servers) {
        long[] cpu = new long[servers.size()];
        for (int i = 0; i < cpu.length; i++) {
            servers.get(i).command("CONFIG", "RESETSTAT");
            cpu[i] = cpuMicros(servers.get(i));
        }
        return cpu;
    }

    /**
     * @param cpuAtReset what {@link #reset} returned for the same servers
     * @return the counters since that reset, summed over the servers
     */
    static CommandStats read(List<RedisNode> servers, long[] cpuAtReset) {
        long cpu = 0;
        Map<String, Long> calls = new TreeMap<>();
        Map<String, Long> micros = new TreeMap<>();
        for (int i = 0; i < cpuAtReset.length; i++) {
            cpu += cpuMicros(servers.get(i)) - cpuAtReset[i];
            readInto(servers.get(i), calls, micros);
        }
        return new CommandStats(calls, micros, cpu);
    }

    private static void readInto(RedisNode redis, Map<String, Long> calls, Map<String, Long> micros) {
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
                    calls.merge(name, Long.parseLong(pair[1]), Long::sum);
                } else if (pair[0].equals("usec")) {
                    micros.merge(name, Long.parseLong(pair[1]), Long::sum);
                }
            }
        }
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
     * @return the script calls alone ({@code evalsha} and the like), without the commands the
     *         scripts ran: each is one request of a client
     */
    long scriptCalls() {
        return calls.entrySet().stream()
                .filter(entry -> SCRIPT_CALLS.contains(entry.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
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
