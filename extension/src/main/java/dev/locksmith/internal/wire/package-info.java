/**
 * The values Redis holds or sends, each read by one parser and written by one writer on the Java
 * side: the exclusive lock's string ({@link dev.locksmith.internal.wire.ExclusiveValue}), the read/write
 * lock's hash fields ({@link dev.locksmith.internal.wire.ReadWriteField}), an offer on a process's
 * channel ({@link dev.locksmith.internal.wire.OfferMessage}), a job's run record
 * ({@link dev.locksmith.internal.wire.RunRecordFormat}) and the lines of the {@code inspect} script
 * ({@link dev.locksmith.internal.wire.InspectLine}); and the scripts' answers to an acquisition
 * ({@link dev.locksmith.internal.wire.AcquireReply}) and to a last release
 * ({@link dev.locksmith.internal.wire.ReleaseReply}). Their Lua counterparts are the one reader and one
 * writer of each value in the scripts. Depends on no other internal package.
 */
package dev.locksmith.internal.wire;
