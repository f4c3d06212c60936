package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lease.HoldCalls;
import dev.locksmith.internal.redis.RedisErrors;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How a thread that holds nothing of a lock yet gets it: attempts in Redis, and between them a
 * wait that never polls. It sleeps until a release is published or the holder's lease runs out.
 * For most kinds only one thread per process contends in Redis at a time while the others queue
 * in the JVM (see {@link LocalContention}), and a thread of this process that releases the
 * reentrant lock hands it straight to one of them; while another thread here holds the lock, the
 * first in line waits for that instead of asking Redis. Fair-lock waiters each keep their own
 * place in the Redis queue. One instance serves one call.
 */
final class Acquisition {
    private static final Logger LOG = System.getLogger(Acquisition.class.getName());
    private static final long ACQUIRED = Long.MIN_VALUE;
    private static final long NOT_ASKED = Long.MIN_VALUE + 1;
    private static final long RETRY_AFTER_FAILURE_MILLIS = 100;
    private static final int THREAD_NAME_LIMIT = 64;

    private final String name;
    private final String description;
    private final LockKind kind;
    private final LockKeys keys;
    private final LockContext context;
    private final String owner;
    private final long lease;
    private final boolean watchdog;
    private final boolean handsOver;
    private Hold granted;
    private long sentAt;

    /**
     * @param description how messages name the lock, such as {@code lock 'orders'}
     * @param owner       who acquires
     * @param lease       the lease in ms
     * @param watchdog    whether the lease keeper renews the lease
     */
    Acquisition(String name, String description, LockKind kind, LockKeys keys, LockContext context, String owner,
                long lease, boolean watchdog) {
        this.name = name;
        this.description = description;
        this.kind = kind;
        this.keys = keys;
        this.context = context;
        this.owner = owner;
        this.lease = lease;
        this.watchdog = watchdog;
        this.handsOver = kind.handsOver() && context.store().oneNodeDecides();
    }

    /**
     * @return the new hold, or null when the deadline passed first
     */
    Hold run(Deadline deadline, Waiting waiting) throws InterruptedException {
        long firstAnswer = NOT_ASKED;
        if (!kind.queuesInRedis() && context.contention().contending(keys.channel()) == null
                && localHolderLeaseLeftMillis() <= 0) {
            // Nobody here wants or holds the lock: ask Redis before setting up any waiting.
            Attempts attempts = new Attempts(deadline);
            firstAnswer = attempts.run(this::attempt);
            if (firstAnswer == ACQUIRED) {
                return granted;
            }
            if (deadline.hasPassed()) {
                withdraw();
                return attempts.endOfWait();
            }
        }
        LocalContention contention = context.contention().enter(keys.channel());
        try {
            if (kind.queuesInRedis()) {
                return awaitTurnInQueue(contention, deadline, waiting);
            }
            if (!kind.contendsOneAtATime()) {
                return contend(contention, null, firstAnswer, deadline, waiting);
            }
            return contendInLine(contention, firstAnswer, deadline, waiting);
        } finally {
            context.contention().leave(contention);
        }
    }

    private Hold contendInLine(LocalContention contention, long firstAnswer, Deadline deadline, Waiting waiting)
            throws InterruptedException {
        LocalWaiter me = contention.newWaiter(owner, lease, threadName());
        Hold hold = null;
        try {
            if (contention.takePlace(me, deadline, waiting)) {
                hold = contend(contention, me, firstAnswer, deadline, waiting);
            }
            return hold;
        } finally {
            contention.leaveLine(me);
            if (hold == null && kind.leavesTracesWhileWaiting()) {
                giveUp();
            }
        }
    }

    /**
     * @param me          this thread's place in the line, or null when it contends on its own (a reader)
     * @param firstAnswer what an attempt just before answered, or {@link #NOT_ASKED}
     */
    private Hold contend(LocalContention contention, LocalWaiter me, long firstAnswer, Deadline deadline,
                         Waiting waiting) throws InterruptedException {
        long pendingAnswer = firstAnswer;
        Attempts attempts = new Attempts(deadline);
        boolean listening = false;
        boolean woken = false;
        while (true) {
            long handedToken = me == null ? -1 : contention.receiveHandOver(me);
            if (handedToken > 0) {
                return grant(handedToken, me.sentAt());
            }
            context.state().checkOpen();
            long seen = contention.wakeUps();
            long known = pendingAnswer; // only the first pass may use it: it goes stale
            pendingAnswer = NOT_ASKED;
            // A wake-up (a release here or a message from Redis) means the lock may be free: ask.
            long busyForMillis = me == null || woken ? 0 : localHolderLeaseLeftMillis();
            if (busyForMillis > 0) {
                // Listen all the same: a force-unlock elsewhere frees the lock without this holder's release.
                if (!listening && attempts.run(() -> listenForReleases(contention)) == 0) {
                    listening = true;
                }
            } else {
                if (known == NOT_ASKED) {
                    busyForMillis = attempts.run(this::attempt);
                    if (busyForMillis == ACQUIRED) {
                        return granted;
                    }
                } else {
                    busyForMillis = known;
                }
                if (!listening && attempts.lastSucceeded() && !deadline.hasPassed()) {
                    // Subscribe, then try again at once: a release published before the subscription
                    // was confirmed would otherwise be missed and the wait would last a whole lease.
                    long subscribed = attempts.run(() -> listenForReleases(contention));
                    if (subscribed == 0) {
                        listening = true;
                        continue;
                    }
                    busyForMillis = subscribed;
                }
            }
            if (deadline.hasPassed()) {
                return attempts.endOfWait();
            }
            waiting.checkInterrupt();
            contention.awaitWakeUp(seen, waitNanos(deadline, busyForMillis), waiting, me);
            woken = contention.wakeUps() != seen;
        }
    }

    /**
     * Another thread of this manager holding the lock will hand it over, or wake this waiter, when
     * it releases: asking Redis meanwhile would only hear that the lock is taken.
     *
     * @return how long that hold lasts at least, in ms; 0 when no other thread here holds the lock
     *         (or its lease may have run out), so Redis must be asked
     */
    private long localHolderLeaseLeftMillis() {
        if (!handsOver) {
            return 0;
        }
        Hold holder = context.leases().anyHoldOf(keys.lock());
        if (holder == null || holder.isLost()) {
            return 0;
        }
        return TimeUnit.NANOSECONDS.toMillis(holder.heldAtLeastUntilNanos() - context.leases().now());
    }

    private Hold awaitTurnInQueue(LocalContention contention, Deadline deadline, Waiting waiting)
            throws InterruptedException {
        contention.joinQueue(owner);
        Hold hold = null;
        try {
            listenForReleases(contention);
            Attempts attempts = new Attempts(deadline);
            while (true) {
                context.state().checkOpen();
                long seen = contention.generalWakeUps();
                long busyForMillis = attempts.run(this::attempt);
                if (busyForMillis == ACQUIRED) {
                    hold = granted;
                    return hold;
                }
                if (deadline.hasPassed()) {
                    return attempts.endOfWait();
                }
                waiting.checkInterrupt();
                // Ask again before the place in the queue lapses, so that only dead waiters lose theirs.
                long nanos = Math.min(waitNanos(deadline, busyForMillis), TimeUnit.MILLISECONDS.toNanos(lease / 3));
                contention.awaitTurn(owner, seen, nanos, waiting);
            }
        } finally {
            contention.leaveQueue(owner);
            if (hold == null) {
                giveUp();
            }
        }
    }

    /**
     * The attempts of one wait. A round trip that fails in a way a retry may get past (Redis
     * restarting, loading, a failover, a network blip) is asked again shortly while time is left;
     * that failure is thrown only if the wait ends on it. A request Redis refused (a missing
     * permission, a wrong key type) fails the wait at once.
     */
    private final class Attempts {
        private final Deadline deadline;
        private LockException failure;

        Attempts(Deadline deadline) {
            this.deadline = deadline;
        }

        /**
         * @return what the attempt answered, or {@link #RETRY_AFTER_FAILURE_MILLIS} when it failed
         *         with time left
         * @throws LockException when it failed and the wait is over
         */
        long run(LongSupplier attempt) {
            try {
                long answer = attempt.getAsLong();
                failure = null;
                return answer;
            } catch (LockException e) {
                if (deadline.hasPassed() || !RedisErrors.isTransient(e)) {
                    throw e;
                }
                if (failure == null) {
                    LOG.log(Level.WARNING, "Waiting for " + description + ": " + e.getMessage() + "; asking again every "
                            + RETRY_AFTER_FAILURE_MILLIS + " ms while the wait lasts");
                }
                failure = e;
                return RETRY_AFTER_FAILURE_MILLIS;
            }
        }

        boolean lastSucceeded() {
            return failure == null;
        }

        /**
         * @return null: the lock was not acquired in time
         * @throws LockException when the wait ended on a failed round trip, not on a busy lock
         */
        Hold endOfWait() {
            if (failure != null) {
                throw failure;
            }
            return null;
        }
    }

    private void giveUp() {
        try {
            context.replies().await(context.store().everywhere(kind.giveUp(keys, owner)),
                    "Giving up waiting for " + description);
        } catch (LockException e) {
            // Not fatal: the mark lapses by itself within one lease. The caller's own outcome
            // (timeout, interrupt, the first failure) is what it must hear about.
            LOG.log(Level.WARNING, "Could not withdraw from waiting for " + description + "; the mark lapses within"
                    + " one lease", e);
        }
    }

    /**
     * @param busyForMillis the holder's remaining lease: 0 means it is running out right now, so
     *                      ask again almost at once; negative means Redis knows no expiry, so only
     *                      a release message (or a lease's time) ends the wait
     */
    private long waitNanos(Deadline deadline, long busyForMillis) {
        long busyFor = busyForMillis < 0 ? lease : Math.max(1, busyForMillis);
        return Math.min(deadline.remainingNanos(), TimeUnit.MILLISECONDS.toNanos(busyFor));
    }

    /**
     * @return 0, so that it can run as an attempt
     */
    private long listenForReleases(LocalContention contention) {
        context.replies().await(contention.listen(context.store().channels()), "Subscribing to releases of ",
                description);
        return 0;
    }

    /**
     * @return {@link #ACQUIRED} when acquired (the hold is in {@link #granted}), otherwise how long
     *         until the lock may be free, in ms (negative when Redis knows no expiry)
     */
    private long attempt() {
        return settle(send());
    }

    /**
     * Sends one attempt without waiting for its answer, so that several locks' attempts can
     * share one round trip (a multi-lock).
     *
     * @return the pending answer, for {@link #settle}
     */
    CompletionStage<List<Long>> send() {
        AcquireRequest request = new AcquireRequest(owner, lease, System.currentTimeMillis(), threadName(),
                context.settings().fenceLifetime().toMillis());
        sentAt = context.leases().now();
        return context.store().acquire(kind.acquisition(keys, request),
                HoldCalls.releaseAll(keys.holdKeys(), kind.holdField(owner), kind.expiryField(owner)), lease);
    }

    /**
     * @param pending what {@link #send()} returned
     * @return {@link #ACQUIRED} when acquired (the hold is {@link #granted()}), otherwise how long
     *         until the lock may be free, in ms (negative when Redis knows no expiry)
     * @throws LockException if Redis did not answer or refused; whatever it may have granted is
     *                       taken back
     */
    long settle(CompletionStage<List<Long>> pending) {
        String field = kind.holdField(owner);
        String expiryField = kind.expiryField(owner);
        List<Long> answer;
        try {
            answer = context.replies().await(pending, "Acquiring ", description);
        } catch (LockException e) {
            abandon(field, expiryField);
            throw e;
        }
        if (answer.get(0) == 0L) {
            return answer.get(1);
        }
        grant(answer.get(1), sentAt);
        return ACQUIRED;
    }

    /**
     * Records a hold Redis granted, once the replicas asked for have it.
     *
     * @param sentAt when the request that got it was sent, on the lease keeper's clock
     */
    private Hold grant(long fencingToken, long sentAt) {
        Hold hold = new Hold(name, description, keys.holdKeys(), owner, kind.holdField(owner), kind.expiryField(owner),
                fencingToken, lease, watchdog, sentAt);
        hold.observe(context.observer().holdStarted(context.labels().of(name, kind.metricName()), hold.fencingToken()));
        awaitReplicas(hold);
        context.leases().granted(hold);
        granted = hold;
        return hold;
    }

    /**
     * @return the hold the last settled attempt got, or null
     */
    Hold granted() {
        return granted;
    }

    /**
     * Removes what a settled attempt that did not acquire left in Redis, if this kind leaves a
     * mark while waiting.
     */
    void withdraw() {
        if (kind.leavesTracesWhileWaiting()) {
            giveUp();
        }
    }

    private void awaitReplicas(Hold hold) {
        int wanted = context.settings().syncReplicas();
        if (wanted == 0) {
            return;
        }
        long timeout = context.settings().syncTimeout().toMillis();
        long acknowledged;
        try {
            acknowledged = context.replies().await(context.store().awaitReplicas(wanted, timeout),
                    "Waiting for replicas to copy " + description);
        } catch (LockException e) {
            abandon(hold.field(), hold.expiryField());
            throw e;
        }
        if (acknowledged < wanted) {
            abandon(hold.field(), hold.expiryField());
            throw new LockException(hold.name(), "The " + description + " was acquired on the master but only " + acknowledged
                    + " of " + wanted + " replica(s) confirmed it within " + timeout + " ms, so it was released again."
                    + " Check the replicas, or lower locksmith.redis.sync-replicas / raise sync-timeout.", null);
        }
    }

    /**
     * Drops a hold without waiting for the answer; used when an acquisition failed in a way that
     * leaves open whether Redis applied it. Sent on the same connection after the acquisition,
     * so Redis runs it after that acquisition.
     */
    private void abandon(String field, String expiryField) {
        context.store().everywhere(HoldCalls.releaseAll(keys.holdKeys(), field, expiryField))
                .whenComplete((released, failure) -> {
                    if (failure != null) {
                        LOG.log(Level.WARNING, "Could not clean up an uncertain acquisition of the " + description
                                + "; it expires with its lease", failure);
                    }
                });
    }

    /**
     * @return the current thread's name for inspection, no longer than {@link #THREAD_NAME_LIMIT}
     */
    private static String threadName() {
        String thread = Thread.currentThread().getName();
        return thread.length() <= THREAD_NAME_LIMIT ? thread : thread.substring(0, THREAD_NAME_LIMIT);
    }
}
