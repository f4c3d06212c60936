/**
 * RedLock: locks on independent masters, held while a majority has them ({@link
 * dev.locksmith.internal.store.redlock.RedLockStore}), and masters that join once they answer
 * ({@link dev.locksmith.internal.store.redlock.MasterRejoin}). A store like any other to the lock
 * algorithms; the rest of {@code internal.store} knows it only by its {@code connect}.
 */
package dev.locksmith.internal.store.redlock;
