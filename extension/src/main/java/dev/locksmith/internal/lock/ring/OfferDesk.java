package dev.locksmith.internal.lock.ring;

import dev.locksmith.internal.lease.ScheduledTasks;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.redis.ScriptCall;
import dev.locksmith.internal.store.LockScript;
import dev.locksmith.internal.store.LockStore;
import dev.locksmith.internal.wire.OfferMessage;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Moves on an offer of the reentrant lock (see {@code release} and {@code pass-offer} in
 * {@code exclusive.lua}) that its process does not take: when no thread of the process offered to
 * wants the lock any more, that process passes it on at once; when the process offered to says
 * nothing (it died after the offer reached it, it stopped, its connection hangs), the releaser
 * passes it on after one command timeout, the longest its answer could take. A process that died
 * before the offer never hears it: Redis counted no listener and the release offered it to the
 * next process already. Everything here is sent without waiting, from the pub/sub thread or the
 * manager's scheduler.
 */
public final class OfferDesk {
    private static final Logger LOG = System.getLogger(OfferDesk.class.getName());
    /** What {@code pass-offer} answers, at most, for a grant whose patience has -2 - answer ms to run. */
    private static final long TOO_EARLY = -2;

    private final LockStore store;
    private final ScheduledTasks tasks;
    private final long watchMillis;
    private final long reserveMillis;
    private final long fenceLifeMillis;
    private final ConcurrentMap<LockKeys, OfferWatch> watches = new ConcurrentHashMap<>();
    private final AtomicLong unreadableOffers = new AtomicLong();

    /**
     * @param tasks         runs the releasers' watches on the manager's watchdog scheduler
     * @param watchMillis   how long an offer may stand before its releaser passes it on: the
     *                      command timeout
     * @param reserveMillis how long an offer passed on keeps the lock at most: the lease
     * @param fenceLifeMillis the fencing counter's lifetime, should a grant passed on find it gone
     */
    public OfferDesk(LockStore store, ScheduledTasks tasks, long watchMillis, long reserveMillis,
                     long fenceLifeMillis) {
        this.store = store;
        this.tasks = tasks;
        this.watchMillis = watchMillis;
        this.reserveMillis = reserveMillis;
        this.fenceLifeMillis = fenceLifeMillis;
    }

    /**
     * @return how long an offer stands before its releaser passes it on, in ms
     */
    long watchMillis() {
        return watchMillis;
    }

    /**
     * Notes an offer this process heard but cannot read: a process of another Locksmith version
     * made it. The first one is logged; each is counted ({@link #unreadableOffers()}).
     *
     * @param message the offer as heard
     */
    void unreadableOffer(LockKeys keys, String message) {
        if (unreadableOffers.getAndIncrement() == 0) {
            LOG.log(Level.WARNING, "The lock at key ''{0}'' was offered to this process in a format this Locksmith version"
                    + " does not read (''{1}'', expected ''{2}<token>|<number>''): a process of another version"
                    + " released it. The first waiter here asks Redis instead, which takes the offered lock as"
                    + " well; logged once, counted from now on. See docs/locks.md, offers between versions",
                    keys.lock(), message, OfferMessage.PREFIX);
        }
    }

    /**
     * @return how many offers this process heard in a format it does not read
     */
    public long unreadableOffers() {
        return unreadableOffers.get();
    }

    /**
     * Passes on an offer to this process that no thread here wants.
     */
    void decline(LockKeys keys, String managerId, long token, long number) {
        send(keys, passOn(keys, Long.toString(token), Long.toString(number), managerId + ":", "", false), "decline");
    }

    /**
     * Watches the offer a release here made, until {@code releaser} heard the lock come round or the
     * offer was taken; passes it on if it still stands after {@link #watchMillis()}. One check per
     * lock is scheduled at a time ({@link OfferWatch}), not one per release.
     *
     * @param releaser the process's contention for the lock, which learns when the lock came round;
     *                 null when nothing here waits for the lock
     */
    public void watch(LockKeys keys, ProcessRing releaser, long token, long number) {
        long now = System.nanoTime();
        if (updateWatch(keys, watch -> watch.watch(token, number, releaser, now))) {
            scheduleCheck(keys, TimeUnit.MILLISECONDS.toNanos(watchMillis));
        }
    }

    private void follow(LockKeys keys, ProcessRing releaser, long token, long number) {
        long now = System.nanoTime();
        if (updateWatch(keys, watch -> watch.follow(token, number, releaser, now))) {
            scheduleCheck(keys, TimeUnit.MILLISECONDS.toNanos(watchMillis));
        }
    }

    /**
     * Updates the lock's watch, made if there is none, atomically with a check that ends it.
     *
     * @return what {@code update} returned: whether to schedule a check
     */
    private boolean updateWatch(LockKeys keys, Predicate<OfferWatch> update) {
        boolean[] schedule = {false};
        watches.compute(keys, (key, existing) -> {
            OfferWatch watch = existing == null ? new OfferWatch() : existing;
            schedule[0] = update.test(watch);
            return watch;
        });
        return schedule[0];
    }

    private void scheduleCheck(LockKeys keys, long delayNanos) {
        if (!schedule(keys, () -> checkDue(keys), delayNanos)) {
            watches.computeIfPresent(keys, (key, watch) -> {
                watch.unscheduled();
                return watch;
            });
        }
    }

    private void checkDue(LockKeys keys) {
        long now = System.nanoTime();
        OfferWatch.Due[] found = {null};
        watches.computeIfPresent(keys, (key, watch) -> {
            found[0] = watch.due(now, TimeUnit.MILLISECONDS.toNanos(watchMillis));
            return watch.isIdle() ? null : watch; // a lock no longer offered keeps no entry here
        });
        OfferWatch.Due due = found[0];
        if (due == null) {
            return;
        }
        if (due.waitNanos() > 0) {
            scheduleCheck(keys, due.waitNanos());
            return;
        }
        check(keys, due.releaser(), due.token(), due.number());
    }

    private boolean schedule(LockKeys keys, Runnable check, long delayNanos) {
        try {
            tasks.schedule(check, delayNanos);
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not watch the offer of lock key " + keys.lock() + "; if the process it"
                    + " went to does not take it, it lapses within one lease", e);
            return false;
        }
    }

    /**
     * Passes on an offer of the lock to a process that no longer listens (see {@code ContentionRegistry#closeAll}).
     *
     * @return completes when Redis answered
     */
    public CompletionStage<Long> reap(LockKeys keys) {
        return store.update(passOn(keys, "", "", "", store.sharded() ? "shardnumsub" : "numsub", false), -1);
    }

    private void check(LockKeys keys, ProcessRing releaser, long token, long number) {
        if (releaser != null && !releaser.watches(token)) {
            return;
        }
        try {
            store.update(passOn(keys, Long.toString(token), Long.toString(number), "", "", false), -1)
                    .whenComplete((standing, failure) -> {
                        if (failure != null) {
                            // A BUSY, a failover, a timeout: passed on by the next try, or found lapsed by it.
                            LOG.log(Level.WARNING, "Could not pass on the untaken offer of lock key " + keys.lock()
                                    + " (" + failure + "); trying again in " + watchMillis + " ms");
                            follow(keys, releaser, token, number);
                        } else if (standing <= TOO_EARLY) {
                            // A grant whose patience has not run out on the server's clock yet
                            // (the two clocks differ): watched again.
                            follow(keys, releaser, token, number);
                        } else if (standing >= 0) {
                            if (standing == number + 1) {
                                LOG.log(Level.DEBUG, "The offer of lock key " + keys.lock() + " was not taken within "
                                        + watchMillis + " ms; offered to the next waiting process");
                            }
                            follow(keys, releaser, token, standing);
                        }
                    });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not pass on the untaken offer of lock key " + keys.lock()
                    + "; it lapses within one lease", e);
        }
    }

    /**
     * At close, before the connections go: withdraws every offer a release here made that still
     * stands (whoever it was passed on to since), since no check of this process will watch it
     * later. Passed on instead, it would stand unwatched, and one that its process does not take
     * (a lost message, a frozen process) would keep the lock for a lease. Withdrawn, the lock is
     * free and every waiter is woken to ask: the process about to take the offer takes the lock.
     * An offer taken meanwhile is left alone by Redis. A grant is withdrawn once its patience has
     * run out, not before (its process may hold the lock on its word): within one command timeout.
     *
     * @return the answers to the withdrawals sent
     */
    public List<CompletableFuture<Long>> withdrawAllAtClose() {
        List<CompletableFuture<Long>> sent = new ArrayList<>();
        for (LockKeys keys : watches.keySet()) {
            OfferWatch.Due[] found = {null};
            watches.computeIfPresent(keys, (key, watch) -> {
                found[0] = watch.withdraw();
                return null;
            });
            OfferWatch.Due due = found[0];
            if (due != null) {
                CompletableFuture<Long> withdrawn = new CompletableFuture<>();
                withdraw(keys, due.token(), withdrawn);
                sent.add(withdrawn);
            }
        }
        return sent;
    }

    private void withdraw(LockKeys keys, long token, CompletableFuture<Long> withdrawn) {
        try {
            store.update(passOn(keys, Long.toString(token), "", "", "", true), -1).whenComplete((answer, failure) -> {
                if (failure != null) {
                    withdrawn.completeExceptionally(failure);
                } else if (answer <= TOO_EARLY) {
                    long waitMillis = TOO_EARLY - answer + 1;
                    if (!schedule(keys, () -> withdraw(keys, token, withdrawn), TimeUnit.MILLISECONDS.toNanos(waitMillis))) {
                        withdrawn.complete(answer);
                    }
                } else {
                    withdrawn.complete(answer);
                }
            });
        } catch (RuntimeException e) {
            withdrawn.completeExceptionally(e);
        }
    }

    private void send(LockKeys keys, ScriptCall call, String why) {
        try {
            store.update(call, -1).whenComplete((standing, failure) -> {
                if (failure != null) {
                    LOG.log(Level.WARNING, "Could not pass on an offer of lock key " + keys.lock() + " (" + why + ");"
                            + " its releaser passes it on within " + watchMillis + " ms", failure);
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Could not pass on an offer of lock key " + keys.lock() + " (" + why + "); its"
                    + " releaser passes it on within " + watchMillis + " ms", e);
        }
    }

    private ScriptCall passOn(LockKeys keys, String token, String number, String target, String onlyIfGone,
                              boolean withdraw) {
        if (keys.isReadWrite()) {
            return LockScript.call("rw-pass-offer").key("lock", keys.lock()).key("channel", keys.channel())
                    .arg("token", token).arg("number", number).arg("offered-to", target).arg("publish", keys.publish())
                    .arg("reserve", reserveMillis).arg("only-if-gone", onlyIfGone).arg("now", System.currentTimeMillis())
                    .flag("withdraw", withdraw).integer();
        }
        return LockScript.call("pass-offer").key("lock", keys.lock()).key("channel", keys.channel())
                .key("fence", keys.fence()).arg("token", token).arg("number", number).arg("offered-to", target)
                .arg("publish", keys.publish()).arg("reserve", reserveMillis).arg("only-if-gone", onlyIfGone)
                .arg("now", System.currentTimeMillis()).arg("patience", watchMillis).flag("withdraw", withdraw)
                .arg("fence-life", fenceLifeMillis).integer();
    }
}
