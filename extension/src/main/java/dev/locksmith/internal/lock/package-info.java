/**
 * The lock algorithms' front: the facades users hold ({@code RedisLock}, the read/write pair,
 * {@code MultiLock}), the engine that makes them, and the two paths every hold takes, the
 * acquisition with the wait its kind chooses ({@code WaitStrategy}) and the one release
 * ({@code Release}). Runs on the caller's thread. Its rooms below it, in the order they may use
 * each other: {@link dev.locksmith.internal.lock.call} (the guarded call, the job lock),
 * {@link dev.locksmith.internal.lock.local} (the wait inside one process),
 * {@link dev.locksmith.internal.lock.ring} (the wait between processes) and
 * {@link dev.locksmith.internal.lock.kind} (what each kind asks Redis). The manager's wiring lives
 * in {@code internal.manager}, its settings in {@code internal.config}.
 */
package dev.locksmith.internal.lock;
