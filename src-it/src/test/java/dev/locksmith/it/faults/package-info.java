/**
 * The fault suite: each test starts a real Redis topology on loopback, breaks it the way
 * production breaks (a master restarting empty, a failover, a partition, masters dying), and
 * asserts what the guarantees in {@code docs/guarantees.md} promise.
 */
package dev.locksmith.it.faults;
