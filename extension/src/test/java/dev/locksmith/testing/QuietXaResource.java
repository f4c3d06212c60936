package dev.locksmith.testing;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A resource of a transaction that holds no data: it prepares and commits without doing anything,
 * so that a test can override the one step it wants to watch or hold (a commit that runs an action,
 * a prepare that pauses). Two resources make the transaction manager use a two-phase commit.
 */
public interface QuietXaResource extends XAResource {

    @Override
    default void commit(Xid xid, boolean onePhase) throws XAException {
    }

    @Override
    default void end(Xid xid, int flags) {
    }

    @Override
    default void forget(Xid xid) {
    }

    @Override
    default int getTransactionTimeout() {
        return 0;
    }

    @Override
    default boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    default int prepare(Xid xid) throws XAException {
        return XA_OK;
    }

    @Override
    default Xid[] recover(int flag) {
        return new Xid[0];
    }

    @Override
    default void rollback(Xid xid) {
    }

    @Override
    default boolean setTransactionTimeout(int seconds) {
        return false;
    }

    @Override
    default void start(Xid xid, int flags) {
    }
}
