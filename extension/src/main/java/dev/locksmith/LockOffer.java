package dev.locksmith;

import java.time.Duration;
import java.time.Instant;

/**
 * A lock that nobody holds but that is reserved for one waiting process: between the release of a
 * reentrant or write lock and the moment the next holder takes it, the release offered it to one
 * process waiting for it, and no other process may take it meanwhile. Normally that lasts one
 * round trip; a process offered to that is frozen (a long GC pause, {@code SIGSTOP}) or died just
 * after the offer keeps the lock reserved until the releasing process passes the offer on, one
 * command timeout later, or, if the releaser died too, until the reservation runs out. See
 * {@link LockManager#describe(String)} and {@link LockInfo#offer()}.
 *
 * @param mode            {@code exclusive} (the reentrant lock) or {@code write} (the write lock of a
 *                        read/write lock)
 * @param manager         the id of the {@link LockManager} it is reserved for: the part of that
 *                        manager's owner ids before the thread (see {@link LockHolder#owner()})
 * @param process         how that manager describes itself, such as
 *                        {@code pid 4711 on shop-1, application shop}; null when it no longer says
 *                        (it closed, or its process died)
 * @param since           when the lock was offered to that process, by the clock of the process
 *                        whose release made the offer (or that passed it on), as a holder's
 *                        {@link LockHolder#since()} is by its own process's clock; null if unknown
 *                        (an offer made by an older version of Locksmith)
 * @param reservationLeft how long the reservation lasted at most when it was read, unless the offer is
 *                        taken or passed on first: the time to live of the lock's key in Redis
 * @param passedOn        how often the offer was passed on before it reached this process (0 when
 *                        the release offered it to this process itself): each time, a process
 *                        offered to before did not take it
 */
public record LockOffer(String mode, String manager, String process, Instant since, Duration reservationLeft,
                        int passedOn) {
}
