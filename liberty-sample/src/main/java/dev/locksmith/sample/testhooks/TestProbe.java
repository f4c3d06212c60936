package dev.locksmith.sample.testhooks;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * This request's hook, armed from its {@code X-Test-*} headers by {@link TestHookFilter}; does
 * nothing for a request without them.
 */
@RequestScoped
public class TestProbe {
    @Inject
    TestHooks hooks;

    @Resource
    TransactionSynchronizationRegistry transactions;

    private String id;
    private Trace trace;
    private Point pauseAt;
    private Point failAt;

    void arm(String id, Point pauseAt, Point failAt) {
        this.id = id;
        this.trace = hooks.trace(id);
        this.pauseAt = pauseAt;
        this.failAt = failAt;
    }

    /**
     * Records that this request reached {@code point}; stops there or fails there if its headers
     * asked for it.
     *
     * @throws SimulatedFailure if {@code X-Test-Fail} named this point
     */
    public void reached(Point point) {
        if (trace == null) {
            return;
        }
        trace.reach(point, point == pauseAt);
        if (point == failAt) {
            throw new SimulatedFailure(id, point);
        }
    }

    /**
     * Arranges for {@code point} to be reached when the current transaction starts to commit,
     * inside the lock of a caller that releases after completion.
     */
    public void reachOnCommit(Point point) {
        if (trace == null) {
            return;
        }
        Trace committing = trace;
        boolean pause = point == pauseAt;
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                committing.reach(point, pause);
            }

            @Override
            public void afterCompletion(int status) {
                // nothing to observe after the outcome
            }
        });
    }
}
