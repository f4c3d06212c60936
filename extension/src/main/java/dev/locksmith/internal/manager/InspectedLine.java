package dev.locksmith.internal.manager;

import java.time.Duration;
import java.time.Instant;

/**
 * One line of the {@code inspect} script's answer, read in one place: a holder, or how many wait.
 *
 * @param holder          true for a holder line, false for the waiting line
 * @param mode            {@code exclusive}, {@code fair}, {@code read} or {@code write}; "" for the waiting line
 * @param owner           the holder's owner id
 * @param fencingToken    its token
 * @param holdCount       how often it holds the lock, 0 where Redis keeps no count
 * @param since           since when, or null when unknown
 * @param leaseLeft       how long its lease lasts
 * @param thread          the holding thread's name
 * @param queued          waiters queued in Redis (the waiting line)
 * @param processes       processes listening for releases (the waiting line)
 */
record InspectedLine(boolean holder, String mode, String owner, long fencingToken, int holdCount, Instant since,
                     Duration leaseLeft, String thread, int queued, int processes) {

    /**
     * @param line {@code holder|<mode>|<owner>|<token>|<count>|<since ms>|<lease left ms>|<thread>}
     *             or {@code waiting|<queued>|<subscribed processes>}
     */
    static InspectedLine parse(String line) {
        String[] part = line.split("\\|", 8);
        if (part[0].equals("waiting")) {
            return new InspectedLine(false, "", "", 0, 0, null, Duration.ZERO, "", Integer.parseInt(part[1]),
                    Integer.parseInt(part[2]));
        }
        return new InspectedLine(true, part[1], part[2], Long.parseLong(part[3]), Integer.parseInt(part[4]),
                part[5].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(part[5])),
                Duration.ofMillis(Math.max(0, Long.parseLong(part[6]))), part[7], 0, 0);
    }

    /**
     * @return which manager holds: the owner id up to its last {@code :}
     */
    String managerId() {
        return owner.substring(0, Math.max(0, owner.lastIndexOf(':')));
    }

    /**
     * The same holder seen on another master (RedLock): the shortest lease left and the largest
     * token, since a RedLock hold's token is its masters' highest.
     */
    InspectedLine mergedWith(InspectedLine other) {
        InspectedLine shorter = other.leaseLeft.compareTo(leaseLeft) < 0 ? other : this;
        return new InspectedLine(true, mode, owner, Math.max(fencingToken, other.fencingToken), shorter.holdCount,
                shorter.since, shorter.leaseLeft, shorter.thread, 0, 0);
    }
}
