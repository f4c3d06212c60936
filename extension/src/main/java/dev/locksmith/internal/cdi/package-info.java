/**
 * The CDI side of Locksmith: a portable extension (CDI Full) and a build compatible extension
 * (CDI Lite, Quarkus) that find every {@code @Locked} use in the container's view of the beans,
 * annotation transformations included, validate it against the method and MicroProfile Config
 * before the application runs, and cache one resolved
 * {@link dev.locksmith.internal.cdi.LockedOperation} per method; the interceptor that runs those
 * operations; and the application-scoped {@code LockManager} bean with its watchdog scheduler.
 */
package dev.locksmith.internal.cdi;
