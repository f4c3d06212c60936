/**
 * The CDI side of Locksmith: a portable extension that finds every {@code @Locked} use when the
 * container starts, validates it against the method and MicroProfile Config, and caches one
 * resolved {@link dev.locksmith.internal.cdi.LockedOperation} per method; the interceptor that
 * runs those operations; and the application-scoped {@code LockManager} bean with its watchdog
 * scheduler.
 */
package dev.locksmith.internal.cdi;
