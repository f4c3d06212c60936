package dev.locksmith.internal.wire;

import dev.locksmith.LastRun;
import java.time.Duration;
import java.time.Instant;

/**
 * One line of the {@code inspect} script's answer ({@code administration.lua}), read in one place:
 * a holder, a standing offer, how many wait, or the latest run of a job of the lock's name. The
 * script is this library's own, so a line of another form is a bug, refused with the line.
 */
public sealed interface InspectLine {

    /**
     * @param line a line of the answer
     * @return the line read
     * @throws IllegalArgumentException if it is none of the forms the script writes
     */
    static InspectLine parse(String line) {
        int bar = line.indexOf('|');
        String kind = bar < 0 ? line : line.substring(0, bar);
        try {
            return switch (kind) {
                case Holder.KIND -> Holder.read(line.substring(bar + 1));
                case Offer.KIND -> Offer.read(line.substring(bar + 1));
                case Waiting.KIND -> Waiting.read(line.substring(bar + 1));
                case LatestRun.KIND -> new LatestRun(RunRecordFormat.read(line.substring(bar + 1)));
                default -> throw new IllegalArgumentException("no line starts with '" + kind + "|'");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a line of the inspect script's answer: '" + line + "' (" + e.getMessage()
                    + ")", e);
        }
    }

    /**
     * @return the line as the {@code inspect} script writes it
     */
    String text();

    /**
     * {@code holder|<mode>|<owner>|<fencing token>|<hold count>|<since ms>|<lease left ms>|<thread>}.
     *
     * @param mode         {@code exclusive}, {@code fair}, {@code kept}, {@code read} or {@code write}
     * @param owner        the holder's owner id
     * @param fencingToken its token
     * @param holdCount    how often it holds the lock, 0 where Redis keeps no count
     * @param since        since when, or null when unknown (a hold of an older version)
     * @param leaseLeft    how long its lease lasts, never negative
     * @param thread       the holding thread's name
     */
    record Holder(String mode, String owner, long fencingToken, int holdCount, Instant since, Duration leaseLeft,
                  String thread) implements InspectLine {
        static final String KIND = "holder";

        private static Holder read(String fields) {
            String[] part = fields.split("\\|", 7);
            return new Holder(part[0], part[1], Long.parseLong(part[2]), Integer.parseInt(part[3]), instant(part[4]),
                    millisLeft(part[5]), part[6]);
        }

        /**
         * @return which manager holds: the owner id up to its last {@code :}
         */
        public String managerId() {
            return owner.substring(0, Math.max(0, owner.lastIndexOf(':')));
        }

        @Override
        public String text() {
            return String.join("|", KIND, mode, owner, Long.toString(fencingToken), Integer.toString(holdCount),
                    millis(since), Long.toString(leaseLeft.toMillis()), thread);
        }
    }

    /**
     * {@code offer|<mode>|<manager id>:|<offer number>|<offered ms>|<reservation left ms>}: a lock
     * nobody holds, reserved for one waiting process.
     *
     * @param mode            {@code exclusive} or {@code write}
     * @param managerId       the manager it is offered to, without the line's {@code :}
     * @param passedOn        the offer's number: how often it was passed on
     * @param since           when it was offered to that manager, or null when unknown (an older version's offer)
     * @param reservationLeft how long the reservation lasts at most, never negative
     */
    record Offer(String mode, String managerId, int passedOn, Instant since, Duration reservationLeft)
            implements InspectLine {
        static final String KIND = "offer";

        private static Offer read(String fields) {
            String[] part = fields.split("\\|", 5);
            String manager = part[1].endsWith(":") ? part[1].substring(0, part[1].length() - 1) : part[1];
            return new Offer(part[0], manager, Integer.parseInt(part[2]), instant(part[3]), millisLeft(part[4]));
        }

        @Override
        public String text() {
            return String.join("|", KIND, mode, managerId + ":", Integer.toString(passedOn), millis(since),
                    Long.toString(reservationLeft.toMillis()));
        }
    }

    /**
     * {@code waiting|<queued>|<subscribed processes>}.
     *
     * @param queued    waiters queued in Redis: the fair queue, writers waiting, processes in the rings
     * @param processes processes listening for the lock's releases
     */
    record Waiting(int queued, int processes) implements InspectLine {
        static final String KIND = "waiting";

        private static Waiting read(String fields) {
            String[] part = fields.split("\\|", -1);
            if (part.length != 2) {
                throw new IllegalArgumentException("two numbers expected");
            }
            return new Waiting(Integer.parseInt(part[0]), Integer.parseInt(part[1]));
        }

        @Override
        public String text() {
            return KIND + "|" + queued + "|" + processes;
        }
    }

    /**
     * {@code last-run|<record>}: the latest run of a job of the lock's name ({@link RunRecordFormat}).
     *
     * @param run the run
     */
    record LatestRun(LastRun run) implements InspectLine {
        static final String KIND = "last-run";

        @Override
        public String text() {
            return KIND + "|" + RunRecordFormat.write(run);
        }
    }

    private static Instant instant(String millis) {
        return millis.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(millis));
    }

    private static String millis(Instant instant) {
        return instant == null ? "" : Long.toString(instant.toEpochMilli());
    }

    /** PTTL answers -1 or -2 for a key without a lease or gone: nothing left. */
    private static Duration millisLeft(String millis) {
        return Duration.ofMillis(Math.max(0, Long.parseLong(millis)));
    }
}
