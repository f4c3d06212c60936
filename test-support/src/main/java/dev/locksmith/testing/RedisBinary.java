package dev.locksmith.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the machine's {@code redis-server}: {@code $REDIS_SERVER}, else the PATH.
 */
final class RedisBinary {
    private RedisBinary() {
    }

    static boolean isAvailable() {
        return find() != null;
    }

    static String path() {
        String found = find();
        if (found == null) {
            throw new IllegalStateException("No redis-server binary found (looked at $REDIS_SERVER and the PATH)"
                    + " and no Docker engine answers. Install one: apt-get install -y redis-server");
        }
        return found;
    }

    private static String find() {
        String configured = System.getenv("REDIS_SERVER");
        if (configured != null && Files.isExecutable(Path.of(configured))) {
            return configured;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/usr/local/bin").split(":")) {
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
