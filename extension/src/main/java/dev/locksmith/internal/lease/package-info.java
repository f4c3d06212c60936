/**
 * The life of a hold, from the moment Redis granted it until it is released or lost: the lease
 * keeper records it, renews watchdog leases in batches, confirms holds before a transaction
 * commits, marks lost holds, and releases what is left when the manager closes. Knows holds and
 * the store; knows no lock algorithm.
 */
package dev.locksmith.internal.lease;
