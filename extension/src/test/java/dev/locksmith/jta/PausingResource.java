package dev.locksmith.jta;

import dev.locksmith.testing.QuietXaResource;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;

/**
 * A second resource of a transaction whose prepare stops until the test lets it go on: the
 * transaction is then paused in the middle of its two-phase commit, after Locksmith's check
 * before commit and before the database commits.
 */
final class PausingResource implements QuietXaResource {
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
}
