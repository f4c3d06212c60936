/**
 * The lock algorithms: one kind class each behind one facade, the acquisition and the wait each
 * kind chooses ({@link dev.locksmith.internal.lock.WaitStrategy}), the hand-over between threads
 * of one process ({@link dev.locksmith.internal.lock.HandOver}), the one release path
 * ({@link dev.locksmith.internal.lock.Release}), and the guarded call shared by
 * {@code callWithLock} and {@code @Locked}. The manager's wiring lives in
 * {@code internal.manager}, its settings in {@code internal.config}.
 */
package dev.locksmith.internal.lock;
