/**
 * Lock throughput of Locksmith against Redisson and the raw limit of two script round trips,
 * all on one local {@code redis-server}. {@link dev.locksmith.benchmarks.LockBenchmark} runs
 * every measurement in fresh worker JVMs ({@link dev.locksmith.benchmarks.BenchmarkWorker}) and
 * writes {@code docs/BENCHMARKS.md} and {@code docs/benchmarks.png}. Not part of the library.
 */
package dev.locksmith.benchmarks;
