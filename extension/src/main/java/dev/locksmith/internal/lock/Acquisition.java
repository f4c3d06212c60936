package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.lock.ring.OfferAttempt;
import dev.locksmith.internal.lock.ring.ProcessRing;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.wire.AcquireReply;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * How a thread that holds nothing of a lock yet gets it: attempts in Redis ({@link HoldRequests}),
 * and between them the wait of the lock's kind ({@link WaitStrategy}), which never polls. When no
 * thread here wants or holds the lock, it asks Redis once before setting up any waiting. One
 * instance serves one call, on the calling thread.
 */
final class Acquisition {
    private static final Logger LOG = System.getLogger(Acquisition.class.getName());
    private static final int THREAD_NAME_LIMIT = 64;

    private final LockTarget lock;
    private final LockContext context;
    private final String owner;
    private final long lease;
    private final String threadName;
    private final HoldRequests requests;
    private boolean joinsRing;
    private long grantToTake = ProcessRing.NO_GRANT;

    /**
     * @param owner    who acquires
     * @param lease    the lease in ms
     * @param watchdog whether the lease keeper renews the lease
     */
    Acquisition(LockTarget lock, String owner, long lease, boolean watchdog) {
        this.lock = lock;
        this.context = lock.context();
        this.owner = owner;
        this.lease = lease;
        this.threadName = currentThreadName();
        this.requests = new HoldRequests(lock, owner, lease, watchdog, threadName);
    }

    /**
     * @return the new hold, or null when the deadline passed first
     * @throws InterruptedException if {@code waiting} is interruptible and the thread was interrupted
     */
    Hold run(Deadline deadline, Waiting waiting) throws InterruptedException {
        WaitStrategy strategy = WaitStrategy.of(lock.kind().waiting());
        AcquireReply.Busy firstAnswer = null;
        if (strategy.asksBeforeWaiting() && context.contention().contending(lock.keys().channel()) == null
                && localHolderLeaseLeftMillis() <= 0) {
            // Nobody here wants or holds the lock: ask Redis before setting up any waiting.
            Attempts attempts = attempts(deadline);
            if (!(attempts.run(this::attempt) instanceof AcquireReply.Busy busy)) {
                return granted();
            }
            firstAnswer = busy;
            if (deadline.hasPassed()) {
                withdraw();
                return attempts.endOfWait();
            }
        }
        LocalContention contention = context.contention().enter(lock.keys());
        try {
            return strategy.await(this, contention, firstAnswer, deadline, waiting);
        } finally {
            context.contention().leave(contention);
        }
    }

    String owner() {
        return owner;
    }

    long leaseMillis() {
        return lease;
    }

    String threadName() {
        return threadName;
    }

    Attempts attempts(Deadline deadline) {
        return new Attempts(deadline, lock.description());
    }

    void checkOpen() {
        context.state().checkOpen();
    }

    /**
     * Another thread of this manager holding the lock will hand it over, or wake the line, when
     * it releases: asking Redis meanwhile would only hear that the lock is taken.
     *
     * @return how long that hold lasts at least, in ms; 0 when no other thread here holds the lock
     *         (or its lease may have run out), so Redis must be asked
     */
    long localHolderLeaseLeftMillis() {
        if (!lock.handsOver()) {
            return 0;
        }
        Hold holder = context.leases().anyHoldOf(lock.keys().lock());
        if (holder == null || holder.isLost()) {
            return 0;
        }
        return TimeUnit.NANOSECONDS.toMillis(holder.heldAtLeastUntilNanos() - context.leases().now());
    }

    /**
     * @param busyForMillis the holder's remaining lease: 0 means it is running out right now, so
     *                      ask again almost at once; negative means Redis knows no expiry, so only
     *                      a release message (or a lease's time) ends the wait
     */
    long waitNanos(Deadline deadline, long busyForMillis) {
        long busyFor = busyForMillis < 0 ? lease : Math.max(1, busyForMillis);
        return Math.min(deadline.remainingNanos(), TimeUnit.MILLISECONDS.toNanos(busyFor));
    }

    /**
     * Subscribes this process to the lock's releases and offers, and waits for Redis to confirm.
     */
    void listen(LocalContention contention) {
        context.replies().await(contention.subscriptions().listen(context.store().channels()), "Subscribing to releases of ",
                lock.description());
    }

    /**
     * @see HoldRequests#mayAlreadyHoldSince
     */
    void mayAlreadyHoldSince(long since) {
        requests.mayAlreadyHoldSince(since);
    }

    /**
     * @return granted (the hold is in {@link #granted()}), or busy with how long until the lock may
     *         be free
     */
    AcquireReply attempt() {
        return settle(send());
    }

    /**
     * One attempt by the first waiter of this process's line. Once the process listens on its own
     * channel, an attempt of a kind that {@linkplain LockTarget#offersToOtherProcesses() offers to
     * other processes} enters the process into the lock's ring when the lock is taken.
     *
     * @return what {@link #attempt()} returns
     */
    AcquireReply attemptIn(LocalContention contention) {
        ProcessRing ring = contention.ring();
        joinsRing = lock.offersToOtherProcesses() && contention.isListening();
        // A grant heard while this waiter was awake, which nobody here took: only take-grant takes it.
        long grant = ring.heardGrant();
        AcquireReply answer = attemptIn(ring, grant);
        if (grant != ProcessRing.NO_GRANT && answer instanceof AcquireReply.Busy) {
            // The grant is gone (passed on, withdrawn): ask as any waiter does, which joins the ring
            // or asks to be woken, so that the next release reaches this process.
            answer = attemptIn(ring, ProcessRing.NO_GRANT);
        }
        return answer;
    }

    private AcquireReply attemptIn(ProcessRing ring, long grant) {
        long heardBefore = ring.messages();
        grantToTake = grant;
        AcquireReply answer;
        try {
            answer = attempt();
        } finally {
            grantToTake = ProcessRing.NO_GRANT;
        }
        if (answer instanceof AcquireReply.Busy busy && busy.spentToken() != AcquireReply.Busy.NO_TOKEN) {
            ring.grants().joinedRing(requests.sentAt(), busy.spentToken());
        }
        ring.attempted(heardBefore, answer instanceof AcquireReply.Granted, answer.inRing());
        return answer;
    }

    /**
     * Sends one attempt without waiting for its answer, so that several locks' attempts can
     * share one round trip (a multi-lock).
     *
     * @return the pending answer, for {@link #settle}
     */
    CompletionStage<List<Long>> send() {
        return requests.send(joinsRing, grantToTake);
    }

    /**
     * The attempt this waiter makes when its process is offered the lock, for the pub/sub thread
     * that hears the offer to send ({@link OfferAttempt}): it changes nothing here, its answer
     * reaches the waiter through its {@link HandOver}. The process listens then, so it stays in
     * the ring if the lock is taken after all.
     *
     * @param grant the grant's fencing token, or {@link ProcessRing#NO_GRANT} for an offer without one
     */
    CompletionStage<List<Long>> sendOnOffer(long grant) {
        return requests.sendOnOffer(lock.offersToOtherProcesses(), grant);
    }

    /**
     * @param pending what {@link #send()} returned
     * @return what {@link #attempt()} returns
     * @throws LockException if Redis did not answer or refused; whatever it may have granted is
     *                       taken back once the attempt's last command is answered
     */
    AcquireReply settle(CompletionStage<List<Long>> pending) {
        return requests.settle(pending);
    }

    /**
     * @return the hold the last settled attempt or hand-over gave, or null
     */
    Hold granted() {
        return requests.granted();
    }

    /**
     * @see HoldRequests#recordHandOver
     */
    Hold grantHandOver(HandOver me) {
        return requests.recordHandOver(me);
    }

    /**
     * @see HoldRequests#giveBackHandOver
     */
    void giveBackHandOver(HandOver me) {
        requests.giveBackHandOver(me);
    }

    /**
     * Removes what a settled attempt that did not acquire left in Redis, if this kind leaves a
     * mark while waiting (a place in the fair queue, a waiting writer's mark).
     */
    void withdraw() {
        ScriptCall giveUp = lock.kind().giveUp(lock.keys(), owner);
        if (giveUp == null) {
            return;
        }
        try {
            context.replies().await(context.store().everywhere(giveUp), "Giving up waiting for ", lock.description());
        } catch (LockException e) {
            // Not fatal: the mark lapses by itself within one lease. The caller's own outcome
            // (timeout, interrupt, the first failure) is what it must hear about.
            LOG.log(Level.WARNING, "Could not withdraw from waiting for " + lock.description() + "; the mark lapses"
                    + " within one lease", e);
        }
    }

    /**
     * @return the current thread's name for inspection, no longer than {@link #THREAD_NAME_LIMIT}
     */
    private static String currentThreadName() {
        String thread = Thread.currentThread().getName();
        return thread.length() <= THREAD_NAME_LIMIT ? thread : thread.substring(0, THREAD_NAME_LIMIT);
    }
}
