package dev.locksmith.internal.lock;

import dev.locksmith.internal.lease.Hold;
import dev.locksmith.internal.lock.kind.LockKeys;
import dev.locksmith.internal.lock.kind.LockKind;
import dev.locksmith.internal.lock.kind.LockNames;
import dev.locksmith.internal.observe.LockLabel;

/**
 * One lock as its operations see it: its name, kind and keys, and the parts of its manager.
 *
 * @param name        the lock's name
 * @param description how messages name it, such as {@code fair lock 'orders'}
 * @param kind        its algorithm
 * @param keys        where it lives in Redis
 * @param context     its manager's parts
 * @param handsOver   whether a last release here may pass it straight to a waiting thread of
 *                    this process: the kind allows it and one node says who holds it
 * @param counterLifetimeMillis how long its fencing counter lives from its seeding: the manager's
 *                    setting, or a per-run name's shorter one ({@link #forOneRun})
 */
record LockTarget(String name, String description, LockKind kind, LockKeys keys, LockContext context,
                  boolean handsOver, long counterLifetimeMillis) {

    static LockTarget of(String name, LockKind kind, LockContext context) {
        LockKeys keys = kind.keys(context.settings().keyPrefix(), LockNames.require(name))
                .publishingWith(context.store().publishCommand());
        return new LockTarget(name, kind.describe() + " '" + name + "'", kind, keys, context,
                kind.handsOver() && context.store().oneNodeDecides(), context.settings().fenceLifetime().toMillis());
    }

    /**
     * Waits until Redis confirmed a hold that a grant handed this process on its word
     * ({@link Hold#confirmation()}), before anything of the hold is sent or read in Redis.
     *
     * @throws dev.locksmith.LockException if the confirmation took longer than a command can
     */
    void awaitConfirmed(Hold hold) {
        if (!hold.confirmation().isDone()) {
            context.replies().await(hold.confirmation(), "Confirming the grant of the ", description);
        }
    }

    /**
     * @param counterLifetimeMillis how long the fencing counter of this per-run name lives
     * @return the same lock, seeding its counter with that lifetime
     */
    LockTarget forOneRun(long counterLifetimeMillis) {
        return new LockTarget(name, description, kind, keys, context, handsOver, counterLifetimeMillis);
    }

    /**
     * @return whether processes waiting for this lock join its ring in Redis, and a release offers
     *         it to the first of them only: a kind that offers, on one deployment
     */
    boolean offersToOtherProcesses() {
        return kind.offersToOtherProcesses() && context.store().oneNodeDecides();
    }

    /**
     * @return how metrics and spans name this lock
     */
    LockLabel label() {
        return context.labels().of(name, kind.metricName());
    }
}
