package dev.locksmith.internal.lock;

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
 */
record LockTarget(String name, String description, LockKind kind, LockKeys keys, LockContext context,
                  boolean handsOver) {

    static LockTarget of(String name, LockKind kind, LockContext context) {
        LockKeys keys = kind.keys(context.settings().keyPrefix(), LockNames.require(name))
                .publishingWith(context.store().publishCommand());
        return new LockTarget(name, kind.describe() + " '" + name + "'", kind, keys, context,
                kind.handsOver() && context.store().oneNodeDecides());
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
