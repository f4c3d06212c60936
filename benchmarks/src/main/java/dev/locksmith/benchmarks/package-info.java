/**
 * Lock throughput of Locksmith against Redisson (every lock kind, RedLock included) and the raw
 * limit of two script round trips, on local {@code redis-server}s, and what fenced writes cost a
 * {@code @Locked} JTA transaction on a local PostgreSQL.
 * {@link dev.locksmith.benchmarks.LockBenchmark} runs every measurement in fresh worker JVMs
 * ({@link dev.locksmith.benchmarks.BenchmarkWorker}) and writes {@code docs/BENCHMARKS.md},
 * {@code docs/benchmarks.png}, {@code docs/benchmarks-kinds.png}, {@code docs/benchmarks-fenced.png}
 * and {@code docs/benchmarks-scale.png} (one lock name contended by 2 to 32 processes). Not part of
 * the library.
 */
package dev.locksmith.benchmarks;
