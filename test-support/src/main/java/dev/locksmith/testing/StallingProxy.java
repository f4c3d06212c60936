package dev.locksmith.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on a free loopback port in front of one Redis node, that can go silent like a
 * network partition: {@link #stall()} stops forwarding in both directions but keeps every
 * socket open, so a client sees neither a reply nor a closed connection and its commands time
 * out; {@link #resume()} forwards again, including what was held back. {@link #cutAll()} closes
 * every connection instead, as a reset would.
 *
 * <p>Each connection costs two daemon threads; at most {@value #MAX_CONNECTIONS} connections
 * are accepted at once, more are closed on arrival.
 *
 * <pre>{@code
 * try (StallingProxy proxy = StallingProxy.inFrontOf(redis)) {
 *     RedisClient.create(proxy.uri()) ...
 *     proxy.stall();   // commands time out
 *     proxy.resume();  // commands answer again
 * }
 * }</pre>
 */
public final class StallingProxy implements AutoCloseable {
    /** The most connections forwarded at once. */
    public static final int MAX_CONNECTIONS = 64;

    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final int BUFFER_BYTES = 16 * 1024;

    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final Object gate = new Object();
    private boolean stalled;
    private volatile boolean closed;

    private StallingProxy(ServerSocket listener, int targetPort) {
        this.listener = listener;
        this.targetPort = targetPort;
    }

    /**
     * @param target the node to forward to
     * @return a proxy forwarding to it, accepting connections already
     */
    public static StallingProxy inFrontOf(RedisNode target) {
        return forwardingTo(target.port());
    }

    /**
     * @param targetPort the loopback port to forward to
     * @return a proxy forwarding to it, accepting connections already
     * @throws UncheckedIOException if no loopback port can be bound
     */
    public static StallingProxy forwardingTo(int targetPort) {
        try {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            StallingProxy proxy = new StallingProxy(listener, targetPort);
            daemon("proxy-" + listener.getLocalPort() + "-accept", proxy::accept).start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not bind a loopback port for a proxy to port " + targetPort, e);
        }
    }

    /**
     * @return the loopback port clients connect to
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * @return {@code redis://127.0.0.1:port} of the proxy
     */
    public String uri() {
        return "redis://127.0.0.1:" + port();
    }

    /**
     * Stops forwarding in both directions; connections stay open and new ones are accepted,
     * but nothing reaches the other side until {@link #resume()}.
     */
    public void stall() {
        synchronized (gate) {
            stalled = true;
        }
    }

    /**
     * Forwards again, starting with the bytes held back while stalled.
     */
    public void resume() {
        synchronized (gate) {
            stalled = false;
            gate.notifyAll();
        }
    }

    /**
     * @return true between {@link #stall()} and {@link #resume()}
     */
    public boolean isStalled() {
        synchronized (gate) {
            return stalled;
        }
    }

    /**
     * Closes every open connection on both sides; the proxy keeps accepting new ones, stalled
     * or not as before.
     */
    public void cutAll() {
        links.forEach(Link::close);
    }

    /**
     * @return how many connections it accepted since it started, stalled or not: a client that
     *         connects anew shows here even while the proxy, stalled, cannot tell it closed others
     */
    public int accepted() {
        return accepted.get();
    }

    /**
     * @return how many connections are open now
     */
    public int connections() {
        return links.size();
    }

    /**
     * Stops accepting, closes every connection and ends every thread of the proxy.
     */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        cutAll();
        synchronized (gate) {
            gate.notifyAll();
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // the listener was closed
            }
            accepted.incrementAndGet();
            if (links.size() >= MAX_CONNECTIONS) {
                closeQuietly(client);
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                // the target is down: the client sees its connection closed at once
                closeQuietly(server);
                closeQuietly(client);
                continue;
            }
            Link link = new Link(client, server);
            links.add(link);
            if (closed) {
                link.close();
                return;
            }
            link.start();
        }
    }

    private void awaitOpenGate(Link link) throws InterruptedException {
        synchronized (gate) {
            while (stalled && !closed && !link.isClosed()) {
                gate.wait();
            }
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed or broken: nothing left to release
        }
    }

    /** One client connection and its connection to the target, forwarded by two threads. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        private volatile boolean linkClosed;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            String name = "proxy-" + port() + "-" + client.getPort();
            daemon(name + "-up", () -> pump(client, server)).start();
            daemon(name + "-down", () -> pump(server, client)).start();
        }

        private void pump(Socket from, Socket to) {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    awaitOpenGate(this);
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (SocketException e) {
                // closed by cutAll(), close() or the other side
            } catch (IOException e) {
                // a broken connection ends the link like a closed one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                close();
            }
        }

        boolean isClosed() {
            return linkClosed;
        }

        void close() {
            linkClosed = true;
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
            synchronized (gate) {
                gate.notifyAll();
            }
        }
    }
}
