/**
 * Where locks live: one Redis deployment (a master, Sentinel, or a cluster), or RedLock's
 * independent masters agreeing by majority (in {@code redlock}, a package of its own). Each
 * operation says what it means for a lock, so a store of several nodes knows how to combine their
 * answers. Knows Redis connections and scripts; knows no lock algorithm.
 */
package dev.locksmith.internal.store;
