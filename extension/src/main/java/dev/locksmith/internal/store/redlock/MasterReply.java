package dev.locksmith.internal.store.redlock;

/**
 * One RedLock master's reply: a value, or why there is none (it failed, did not answer within the
 * node timeout, or is not connected).
 */
record MasterReply<T>(T value, Throwable failure) {
}
