/**
 * A small bank whose transfers run under one distributed lock per bank, {@code bank:<bank>}, with
 * fenced writes ({@code @Locked(fenced = true)}) and, for comparison, without: the fence table in
 * the same database refuses a holder whose lease ran out once a later holder has checked in.
 */
package dev.locksmith.sample.bank;
