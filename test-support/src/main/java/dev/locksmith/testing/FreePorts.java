package dev.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for servers the tests start, taken below the range the kernel hands out
 * to outgoing connections: a server that binds its port seconds after it was chosen (an
 * application server starting) must not find it taken by some client's connection meanwhile.
 */
public final class FreePorts {
    private static final int LOWEST = 15_000;
    private static final int ATTEMPTS = 200;
    private static final int BELOW_EPHEMERAL = ephemeralLow();

    private FreePorts() {
    }

    /**
     * @return a port no process listened on a moment ago, outside the ephemeral range
     */
    public static int next() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(LOWEST, BELOW_EPHEMERAL);
            if (isFree(candidate)) {
                return candidate;
            }
        }
        return nextFree(0);
    }

    /**
     * @param port a port number
     * @return whether no process listens on it on loopback now
     */
    public static boolean isFree(int port) {
        try {
            nextFree(port);
            return true;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    private static int nextFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(port == 0 ? "No free loopback port" : "Loopback port " + port + " is taken", e);
        }
    }

    /**
     * @return the first port of Linux's ephemeral range, or the IANA one elsewhere
     */
    private static int ephemeralLow() {
        try {
            // Not Files.readString: a /proc file reports size 0, and readString then returned only "3",
            // which put the chosen ports inside the ephemeral range.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST + 1_000 ? low : 49_152;
        } catch (IOException | RuntimeException e) {
            return 49_152;
        }
    }
}
