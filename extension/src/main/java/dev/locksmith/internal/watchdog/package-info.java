/**
 * Lease renewal: one periodic tick renews every watchdog-kept hold of a process in one script
 * call per server (per hash slot in a cluster), and marks holds Redis no longer has as lost.
 */
package dev.locksmith.internal.watchdog;
