/**
 * The wait inside one process: per lock, the line of threads where only the first asks Redis
 * ({@code LocalContention}), the hand-over of the lock from a releasing thread to a sleeping
 * waiter ({@code HandOver}), the fair queue's turns, the wake-ups and the subscriptions, and the
 * registry of the locks some thread waits for. Waiting threads join, park and leave
 * ({@code LineWaits}); a releasing thread claims and settles a waiter ({@code LineHandOvers}); the
 * Redis pub/sub thread delivers wake-ups and offers ({@code OfferTaking}); the closing thread wakes
 * everyone.
 *
 * <p>The lock order, everywhere in this package: the registry's {@code changes} lock, then a
 * lock's mutex (its line, ring seat, fair turns and subscriptions share it), never the other way
 * round; no thread calls into Redis and waits for the answer while it holds either. A command
 * started under them (an UNSUBSCRIBE, passing an offer on) is sent and not awaited: its answer
 * comes on a Lettuce thread that takes neither.
 */
package dev.locksmith.internal.lock.local;
