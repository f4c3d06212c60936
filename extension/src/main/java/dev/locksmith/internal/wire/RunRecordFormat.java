package dev.locksmith.internal.wire;

import dev.locksmith.LastRun;
import java.time.Duration;
import java.time.Instant;

/**
 * The one writer and the one reader of a job's run as Redis keeps it ({@code last-run} in
 * {@code administration.lua}):
 * {@code <started ms>|<took ms>|<outcome>|<fencing token>|<error class or empty>|<thread>|<lock>|<slot ms or empty>|<process>}.
 * The thread's and the lock's {@code |} and {@code %} are escaped; the process comes last and is
 * kept as it is. An older version wrote {@code <started ms>|<took ms>|<outcome>|<fencing token>|<error>|<thread>|<process>},
 * which still reads, without lock and slot.
 */
public final class RunRecordFormat {
    private static final int FIELDS = 9;
    private static final int OLDER_FIELDS = 7;

    private RunRecordFormat() {
    }

    /**
     * @param run a run with its lock and process
     * @return the record as the script stores it
     */
    public static String write(LastRun run) {
        return run.started().toEpochMilli() + "|" + run.took().toMillis() + "|" + run.outcome() + "|" + run.fencingToken()
                + "|" + (run.error() == null ? "" : run.error()) + "|" + escape(run.thread()) + "|" + escape(run.lock())
                + "|" + (run.slot() == null ? "" : run.slot().toEpochMilli()) + "|" + run.process();
    }

    /**
     * @param record a record as {@link #write} or an older version wrote it
     * @return the run
     * @throws IllegalArgumentException if it is neither form
     */
    public static LastRun read(String record) {
        String[] part = record.split("\\|", FIELDS);
        try {
            Instant started = Instant.ofEpochMilli(Long.parseLong(part[0]));
            Duration took = Duration.ofMillis(Long.parseLong(part[1]));
            long token = Long.parseLong(part[3]);
            String error = part[4].isEmpty() ? null : part[4];
            if (part.length < FIELDS || !part[7].matches("\\d*")) {
                String process = record.split("\\|", OLDER_FIELDS)[OLDER_FIELDS - 1];
                return new LastRun(started, took, part[2], error, process, part[5], token);
            }
            return new LastRun(started, took, part[2], error, part[8], unescape(part[5]), token, unescape(part[6]),
                    part[7].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(part[7])));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a job's run record: '" + record + "'", e);
        }
    }

    private static String escape(String text) {
        return text.replace("%", "%25").replace("|", "%7C");
    }

    private static String unescape(String text) {
        return text.replace("%7C", "|").replace("%25", "%");
    }
}
