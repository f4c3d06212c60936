/**
 * The lock algorithms (one kind class each) behind one facade, the wait for a lock (one local
 * thread per lock name contends in Redis while the others queue in the JVM, woken by a pub/sub
 * release message or a local release), the guarded call shared by {@code callWithLock} and
 * {@code @Locked}, and the manager that wires it all. Packages depend one way:
 * {@code cdi -> jta -> lock -> lease -> store -> redis}.
 */
package dev.locksmith.internal.lock;
