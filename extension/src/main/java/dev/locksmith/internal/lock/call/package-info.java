/**
 * The call layer shared by {@code callWithLock} and {@code @Locked}: the guarded call with its
 * wait and its outcome, the job lock (a minimum hold, a skipped run, the record of the last run),
 * and the deferral of an unlock to a transaction's completion. Runs on the caller's thread; a
 * deferred unlock runs on the thread that completes the transaction. It knows locks only through
 * the public {@code DistributedLock} and the small {@code JobLock}, never the algorithms.
 */
package dev.locksmith.internal.lock.call;
