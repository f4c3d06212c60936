package dev.locksmith.jta;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A second resource of a transaction whose prepare stops until the test lets it go on: the
 * transaction is then paused in the middle of its two-phase commit, after Locksmith's check
 * before commit and before the database commits.
 */
final class PausingResource implements XAResource {
    final CountDownLatch preparing = new CountDownLatch(1);
    final CountDownLatch resume = new CountDownLatch(1);

    @Override
    public int prepare(Xid xid) throws XAException {
        preparing.countDown();
        try {
            if (!resume.await(1, TimeUnit.MINUTES)) {
                throw new XAException(XAException.XA_RBTIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new XAException(XAException.XA_RBOTHER);
        }
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
    }

    @Override
    public void end(Xid xid, int flags) {
    }

    @Override
    public void forget(Xid xid) {
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public Xid[] recover(int flag) {
        return new Xid[0];
    }

    @Override
    public void rollback(Xid xid) {
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }

    @Override
    public void start(Xid xid, int flags) {
    }
}
