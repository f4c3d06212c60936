/**
 * What each kind of lock asks Redis: the reentrant ({@code ExclusiveKind}), the fair
 * ({@code FairKind}) and the read/write sides ({@code ReadWriteKind}), each building its script
 * calls from a lock's keys ({@code LockKeys}) and saying how its waiters wait ({@code WaitStyle}).
 * Stateless and shared; any thread may use it.
 */
package dev.locksmith.internal.lock.kind;
