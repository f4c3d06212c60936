/**
 * Releasing after a JTA transaction completes: at the end of a locked call inside a transaction,
 * the release is handed to an interposed synchronization that, before commit, confirms and
 * extends every deferred lock in one round trip (rolling the transaction back if one was lost),
 * and after commit or rollback releases them by their recorded owner on whatever thread
 * completes the transaction.
 */
package dev.locksmith.internal.jta;
