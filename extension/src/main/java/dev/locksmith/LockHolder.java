package dev.locksmith;

import java.time.Duration;
import java.time.Instant;

/**
 * One holder of a lock, as Redis knows it, readable from any process: see
 * {@link LockManager#describe(String)}.
 *
 * @param owner        the holder's owner id: its manager's id and its thread's id
 * @param mode         {@code exclusive} (a reentrant lock), {@code fair}, {@code read}, {@code write}, or
 *                     {@code kept}: a job returned before its minimum hold, and the lock stays taken
 *                     until then (holdCount 0)
 * @param process      how the holder's manager describes itself, such as
 *                     {@code pid 4711 on shop-1, application shop}; null when that manager no
 *                     longer says (it closed, or its process died and its lease runs out)
 * @param thread       the name of the holding thread, as it was when it took the lock
 * @param holdCount    how many times the holder holds it (re-entry); 0 where Redis does not
 *                     keep the count (read/write locks)
 * @param fencingToken the fencing token of the hold
 * @param since        when the hold was taken, by the holder's clock; null if unknown
 * @param leaseLeft    how long until the lease runs out unless it is renewed
 */
public record LockHolder(String owner, String mode, String process, String thread, int holdCount, long fencingToken,
        Instant since, Duration leaseLeft) {
}
