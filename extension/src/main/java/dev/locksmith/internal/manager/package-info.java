/**
 * The manager's wiring: connects to Redis, checks the user's permissions, starts the lease
 * keeper and the lock engine on the right scheduler, keeps the manager's description in Redis,
 * answers {@code describe}, and closes it all in order.
 */
package dev.locksmith.internal.manager;
