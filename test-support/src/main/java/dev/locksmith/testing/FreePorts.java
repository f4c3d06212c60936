package dev.locksmith.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free loopback ports, asked of the operating system.
 */
public final class FreePorts {
    private FreePorts() {
    }

    /**
     * @return a port no process listened on a moment ago
     */
    public static int next() {
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
}
