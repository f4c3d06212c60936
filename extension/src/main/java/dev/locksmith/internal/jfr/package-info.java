/**
 * Flight Recorder events for lock trouble, always on at negligible cost: JFR is part of every
 * JDK Locksmith runs on, and an event that is not enabled costs one check.
 */
package dev.locksmith.internal.jfr;
