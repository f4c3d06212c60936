package dev.locksmith.it;

import java.util.Locale;

/**
 * Where the sample's test hooks let a traced request be waited for, paused or failed (the
 * sample's {@code dev.locksmith.sample.testhooks.Point}).
 */
enum Point {
    /** The request arrived, before any lock was asked for. */
    RECEIVED,
    /** Its work began: the lock is held and the transaction open. */
    STARTED,
    /** It wrote and flushed, not committed. */
    WRITTEN,
    /** Its transaction is committing. */
    COMMITTING;

    String header() {
        return name().toLowerCase(Locale.ROOT);
    }
}
