/**
 * The lock algorithms (one class each), the table of holds this process has, and the waiting:
 * one local thread per lock name contends in Redis while the others queue in the JVM, woken by
 * a pub/sub release message or a local release.
 */
package dev.locksmith.internal.lock;
