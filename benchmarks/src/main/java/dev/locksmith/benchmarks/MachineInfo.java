package dev.locksmith.benchmarks;

import dev.locksmith.testing.RedisNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Where and when the numbers were taken; numbers without this are not comparable.
 *
 * @param processors what {@code nproc} would say
 * @param cpu        the CPU model, or "unknown"
 * @param os         operating system and architecture
 * @param java       the JVM's name and version
 * @param redis      the redis-server version
 * @param libraries  Lettuce and Redisson versions
 * @param date       when the run started, UTC
 * @param loadAtStart the 1, 5 and 15 minute load averages when the run started
 * @param database    the PostgreSQL version, the transaction manager's and the JDBC driver's, or
 *                    "" when no scenario chosen uses the database
 */
record MachineInfo(int processors, String cpu, String os, String java, String redis, String libraries, String date,
                   String loadAtStart, String database) {

    /**
     * @param redis    the server the run uses, asked for its version
     * @param database the run's PostgreSQL, asked for its version; null if the run has none
     */
    static MachineInfo collect(RedisNode redis, BenchmarkDatabase database) {
        return new MachineInfo(
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                redisVersion(redis),
                "Lettuce " + ArtifactVersions.of("io.lettuce", "lettuce-core")
                        + ", Redisson " + ArtifactVersions.of("org.redisson", "redisson"),
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                loadAverage(),
                database == null ? "" : "PostgreSQL " + database.version() + ", Narayana "
                        + ArtifactVersions.of("org.jboss.narayana.jta", "narayana-jta") + ", PostgreSQL JDBC "
                        + org.postgresql.util.DriverInfo.DRIVER_VERSION);
    }

    /**
     * @return the 1, 5 and 15 minute load averages now, from {@code /proc/loadavg}, or "unknown"
     */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " / " + fields[1] + " / " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String redisVersion(RedisNode redis) {
        for (String line : redis.command("INFO", "server").split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "unknown";
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
