package dev.locksmith.internal.lock;

import dev.locksmith.LockException;
import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.kind.AcquireRequest;
import dev.locksmith.internal.lock.local.Deadline;
import dev.locksmith.internal.lock.local.HandOver;
import dev.locksmith.internal.lock.local.LocalContention;
import dev.locksmith.internal.lock.local.Waiting;
import dev.locksmith.internal.lock.ring.GrantTrust;
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
 * How a thread that holds nothing of a lock yet gets it: attempts in Redis, and between them the
 * wait of the lock's kind ({@link WaitStrategy}), which never polls. When no thread here wants
 * or holds the lock, it asks Redis once before setting up any waiting. One instance serves one
 * call, on the calling thread.
 */
final class Acquisition {
    private static final Logger LOG = System.getLogger(Acquisition.class.getName());
    private static final int THREAD_NAME_LIMIT = 64;

    private final LockTarget lock;
    private final LockContext context;
    private final String owner;
    private final long lease;
    private final boolean watchdog;
    private final String threadName;
    private final HoldGrant grants;
    private long uncertainSince = HandOver.NONE;
    private Hold granted;
    private long sentAt;
    private boolean joinsRing;
    private long grantToTake = ProcessRing.NO_GRANT;
    private boolean takesGrant;
    private GrantTrust attemptRing;

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
        this.watchdog = watchdog;
        this.threadName = currentThreadName();
        this.grants = new HoldGrant(lock, owner, lease, watchdog);
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
                return granted;
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
     * Says that a hand-over to this waiter may have passed it the lock although no answer said so:
     * a hold it now finds in Redis may date from then.
     *
     * @param since when that hand-over was sent, or {@link HandOver#NONE}
     */
    void mayAlreadyHoldSince(long since) {
        uncertainSince = since;
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
            ring.grants().joinedRing(sentAt, busy.spentToken());
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
        sentAt = context.leases().now();
        // While it is under way, this process trusts no grant of the lock, so it may take one itself.
        LocalContention contention = context.contention().contending(lock.keys().channel());
        attemptRing = contention == null ? null : contention.ring().grants();
        takesGrant = attemptRing != null && attemptRing.beginAttempt();
        try {
            return sendRequest(joinsRing, grantToTake);
        } catch (RuntimeException | Error e) {
            endAttempt();
            throw e;
        }
    }

    private void endAttempt() {
        if (attemptRing != null) {
            attemptRing.endAttempt();
            attemptRing = null;
        }
        takesGrant = false;
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
        return sendRequest(lock.offersToOtherProcesses(), grant);
    }

    private CompletionStage<List<Long>> sendRequest(boolean joiningRing, long grant) {
        AcquireRequest request = new AcquireRequest(owner, lease, System.currentTimeMillis(), threadName,
                lock.counterLifetimeMillis(), joiningRing, takesGrant);
        ScriptCall call = grant == ProcessRing.NO_GRANT ? lock.kind().acquisition(lock.keys(), request)
                : lock.kind().takeGrant(lock.keys(), request, grant);
        return context.store().acquire(call, grants.dropCall(), lease);
    }

    /**
     * @param pending what {@link #send()} returned
     * @return what {@link #attempt()} returns
     * @throws LockException if Redis did not answer or refused; whatever it may have granted is
     *                       taken back once the attempt's last command is answered
     */
    AcquireReply settle(CompletionStage<List<Long>> pending) {
        try {
            AcquireReply answer;
            try {
                answer = AcquireReply.read(context.replies().await(pending, "Acquiring ", lock.description()));
            } catch (LockException e) {
                // After the attempt's own last command (a NOSCRIPT retry included), never before it:
                // a drop that overtook a late attempt would leave that attempt's grant behind.
                pending.whenComplete((ignored, failure) -> grants.dropNow());
                throw e;
            }
            if (answer instanceof AcquireReply.Granted granted) {
                if (attemptRing != null) {
                    // A grant to this process that this attempt took ('g') is stale from now on,
                    // however late its message comes: every grant standing later is newer.
                    attemptRing.joinedRing(sentAt, granted.fencingToken());
                }
                grant(granted.fencingToken(), sentAt);
            }
            return answer;
        } finally {
            endAttempt(); // once its hold is recorded: until then a grant heard is not trusted
        }
    }

    /**
     * @return the hold the last settled attempt got, or null
     */
    Hold granted() {
        return granted;
    }

    /**
     * Records the hold a release here, or a grant to this process, handed this waiter. A grant
     * trusted before Redis confirmed it ({@link HandOver#confirmation()}) holds until the grant's
     * patience runs out, and then as long as its confirmation says; one whose confirmation was
     * answered before this waiter took it is taken only if Redis confirmed it.
     *
     * @return the hold, or null when the grant's confirmation was refused or failed first: the
     *         waiter asks Redis (where it finds its hold, should an unanswered confirmation have
     *         given it one)
     */
    Hold grantHandOver(HandOver me) {
        if (me.confirmation() == null) {
            return grant(me.token(), me.sentAt());
        }
        HoldGrant.Confirmation confirmation = grants.confirmationOf(me);
        if (confirmation == HoldGrant.Confirmation.PENDING) {
            granted = grants.recordTrusted(me.token(), me.sentAt(), me.trustedUntil(), me.confirmation());
            return granted;
        }
        if (confirmation == HoldGrant.Confirmation.UNKNOWN) {
            mayAlreadyHoldSince(me.sentAt());
        }
        return confirmation == HoldGrant.Confirmation.CONFIRMED ? grant(me.token(), me.sentAt()) : null;
    }

    /**
     * Gives back a lock a release here handed this waiter after it stopped waiting (an error on
     * its own path): nobody here would otherwise release it before its lease ran out.
     */
    void giveBackHandOver(HandOver me) {
        LOG.log(Level.WARNING, "A thread stopped waiting for the " + lock.description() + " while a release handed"
                + " it the lock (fencing token " + me.token() + "); releasing it again");
        grants.dropNow();
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
     * Records a hold Redis granted ({@link HoldGrant}). Its lease counts from when the request that
     * got it was sent, or from an earlier hand-over of unknown outcome.
     *
     * @param sentAt when the request that got it was sent, on the lease keeper's clock
     */
    private Hold grant(long fencingToken, long sentAt) {
        long since = uncertainSince == HandOver.NONE ? sentAt : Math.min(sentAt, uncertainSince);
        granted = grants.record(fencingToken, since);
        return granted;
    }

    /**
     * @return the current thread's name for inspection, no longer than {@link #THREAD_NAME_LIMIT}
     */
    private static String currentThreadName() {
        String thread = Thread.currentThread().getName();
        return thread.length() <= THREAD_NAME_LIMIT ? thread : thread.substring(0, THREAD_NAME_LIMIT);
    }
}
