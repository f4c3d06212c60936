/**
 * What Locksmith tells operators about: waits, holds, lost leases, renewals, hand-overs, turns,
 * failed releases and Redis errors, as a small interface the lock code calls. Flight Recorder and
 * OpenTelemetry implement it in packages of their own; this one names neither.
 */
package dev.locksmith.internal.observe;
