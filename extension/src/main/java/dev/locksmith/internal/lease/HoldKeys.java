package dev.locksmith.internal.lease;

/**
 * Where a hold lives in Redis, as far as keeping and dropping it goes.
 *
 * @param lock           the lock's key
 * @param channel        where the lock's releases are announced
 * @param publishCommand {@code publish}, or {@code spublish} in a cluster
 */
public record HoldKeys(String lock, String channel, String publishCommand) {
}
