/**
 * What the sample does only where the server has Jakarta Concurrency 3.1 (Jakarta EE 11): a job
 * scheduled by {@code @Asynchronous(runAt = @Schedule(...))} and locked with {@code @Locked}, and
 * reservations run on a managed executor's virtual threads. The same WAR deploys unchanged on
 * Jakarta EE 10 servers, which do not know the members 3.1 added and ignore them; there
 * {@link ConcurrencyLevel} keeps the schedule from starting and the virtual-thread path answers 501.
 */
package dev.locksmith.sample.concurrency;
