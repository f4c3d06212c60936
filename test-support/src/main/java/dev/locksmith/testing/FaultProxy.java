package dev.locksmith.testing;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A TCP proxy on a free loopback port in front of one Redis node that reads the RESP2 and RESP3
 * traffic in both directions, records every command, and can fail one chosen command the way
 * Redis or the network would: an error reply instead of the command, no answer for a while, the
 * connection dropped before or after the command reached Redis, or a pub/sub message lost.
 *
 * <p><b>What it records.</b> Every command, in the order the proxy read them, as a {@link Traced}
 * entry: a global sequence number, the connection's id (1, 2, … in the order they were
 * accepted) and a <em>signature</em>: the command's name upper-cased ({@code PUBLISH},
 * {@code SUBSCRIBE}), with the sub-command for container commands ({@code CLIENT SETINFO}),
 * and for scripts a label: {@code EVALSHA release} for the script whose SHA-1 the
 * {@code scriptLabels} function names {@code release} ({@code EVAL} is labelled by the SHA-1 of its
 * text, so a script sent by text gets the same label). Every pub/sub message Redis pushes
 * ({@code message}, {@code smessage}, {@code pmessage}) is recorded too, as
 * {@code MESSAGE <channel label>}, flagged as a push.
 *
 * <p><b>One fault at a time.</b> {@link #arm(Fault)} picks the {@code n}-th entry (counted from
 * the arming, from 1) whose signature is the fault's, and:
 * <ul>
 *   <li>{@link Kind#ERROR_REPLY}: answers it with the fault's error line ({@code BUSY …},
 *       {@code OOM …}, {@code READONLY …}, {@code LOADING …}, {@code NOSCRIPT …}) instead of
 *       forwarding it: Redis never sees it;</li>
 *   <li>{@link Kind#NO_ANSWER}: forwards it, and holds its reply, with every later reply and push
 *       of that connection (as a slow network would), until the hold has passed since it was
 *       forwarded;</li>
 *   <li>{@link Kind#DROP_BEFORE}: forwards neither it nor anything the client sends after it,
 *       delivers the replies of the commands before it, then closes the connection;</li>
 *   <li>{@link Kind#DROP_AFTER}: forwards it (and nothing after it), waits until Redis answered
 *       it, delivers the replies before it, then closes the connection without delivering its
 *       reply: it ran, and the client cannot know;</li>
 *   <li>{@link Kind#LOSE_PUSH}: drops that pub/sub message push; everything else passes.</li>
 * </ul>
 *
 * <p><b>Reply order under pipelining.</b> A client such as Lettuce sends many commands before it
 * reads their replies, and matches replies to commands by order alone. Each connection keeps a
 * FIFO of reply slots, one per command read from the client: a forwarded command's slot is filled
 * by Redis's next reply, an error reply the proxy makes is put in its command's slot, and slots
 * are delivered strictly in order. Pub/sub message pushes (RESP3 {@code >} frames, and on a
 * subscribed RESP2 connection the arrays {@code message}/{@code pmessage}/{@code smessage}) fill
 * no slot: each is delivered right after the replies Redis sent before it, so a held reply holds
 * back the pushes behind it, as on a real connection, and a lost push leaves every reply as it was.
 *
 * <p><b>The subscribe family</b> ({@code SUBSCRIBE}, {@code SSUBSCRIBE}, {@code PSUBSCRIBE} and
 * their {@code UNSUBSCRIBE}s) is answered by one confirmation per channel, which RESP3 sends as
 * pushes: their slot is filled by as many confirmations of the matching kind as the command named
 * channels (an {@code UNSUBSCRIBE} without channels, by confirmations up to the one that counts 0
 * subscriptions left), or by one error. Every fault kind applies to them with the same meaning:
 * an error reply means Redis refused the subscription (as it does for a channel the ACL forbids),
 * no answer holds the confirmations, a drop closes the connection before or after Redis subscribed.
 *
 * <p>Each connection costs three daemon threads (client to Redis, Redis to client, delivery);
 * {@link #close()} ends all of them.
 *
 * <pre>{@code
 * try (FaultProxy proxy = FaultProxy.inFrontOf(redis, sha -> labels.get(sha), channel -> channel)) {
 *     proxy.arm(FaultProxy.Fault.errorReply("EVALSHA release", 1, FaultProxy.BUSY));
 *     ... run the code under test against proxy.uri() ...
 *     proxy.awaitFired(Duration.ofSeconds(5));
 *     proxy.trace();   // every command and push, in order
 * }
 * }</pre>
 */
public final class FaultProxy implements AutoCloseable {
    /** What Redis answers while a script runs past {@code busy-reply-threshold}. */
    public static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    /** What Redis answers a write when {@code maxmemory} is reached with {@code noeviction}. */
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    /** What a replica answers a write (a master demoted by a failover). */
    public static final String READONLY = "READONLY You can't write against a read only replica.";
    /** What Redis answers while it loads its data set after a restart. */
    public static final String LOADING = "LOADING Redis is loading the dataset in memory";
    /** What Redis answers {@code EVALSHA} of a script it does not know (restarted, flushed). */
    public static final String NOSCRIPT = "NOSCRIPT No matching script. Please use EVAL.";

    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final long THREAD_JOIN_MILLIS = 5_000;
    private static final Set<String> CONTAINER_COMMANDS = Set.of("CLIENT", "SCRIPT", "CONFIG", "CLUSTER", "ACL",
            "PUBSUB", "COMMAND", "OBJECT", "MEMORY", "FUNCTION", "XINFO", "SENTINEL", "MODULE", "LATENCY", "SLOWLOG");
    private static final Set<String> SUBSCRIBING = Set.of("SUBSCRIBE", "SSUBSCRIBE", "PSUBSCRIBE", "UNSUBSCRIBE",
            "SUNSUBSCRIBE", "PUNSUBSCRIBE");
    private static final Set<String> CONFIRMATIONS = Set.of("subscribe", "ssubscribe", "psubscribe", "unsubscribe",
            "sunsubscribe", "punsubscribe");
    private static final Set<String> MESSAGES = Set.of("message", "smessage", "pmessage");

    private final ServerSocket listener;
    private final int targetPort;
    private final Function<String, String> scriptLabels;
    private final Function<String, String> channelLabels;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private final AtomicLong sequence = new AtomicLong();
    private final List<Traced> trace = new ArrayList<>();
    private final Object faultLock = new Object();
    private Fault armed;
    private int seen;
    private CountDownLatch fired = new CountDownLatch(1);
    private Traced firedAt;
    private volatile boolean closed;

    /**
     * What one fault does to the command or push it picks.
     */
    public enum Kind {
        /**
         * An error line in place of the reply; the command is not forwarded. With a hold, the
         * error (and every reply after it on that connection) is held: commands the client
         * sends meanwhile still reach Redis, so a client's retry of the failed command runs
         * after them.
         */
        ERROR_REPLY,
        /** The command is forwarded; its reply, and every later one on that connection, is held. */
        NO_ANSWER,
        /** The connection is closed before the command is forwarded. */
        DROP_BEFORE,
        /** The command is forwarded; the connection is closed once Redis answered it, the answer undelivered. */
        DROP_AFTER,
        /** The pub/sub message push is dropped. */
        LOSE_PUSH
    }

    /**
     * One fault: which entry it picks (its signature and occurrence) and what it does.
     *
     * @param signature  the entry's signature, such as {@code EVALSHA release} or {@code MESSAGE ...}
     * @param occurrence which entry of that signature, from 1, counted from {@link #arm}
     * @param kind       what it does
     * @param errorLine  for {@link Kind#ERROR_REPLY}, the error without its leading {@code -}; else null
     * @param hold       for {@link Kind#NO_ANSWER}, how long the reply is held; for {@link
     *                   Kind#ERROR_REPLY}, how long the error is held, or null for not at all; else null
     */
    public record Fault(String signature, int occurrence, Kind kind, String errorLine, Duration hold) {
        /**
         * @throws IllegalArgumentException if a field the kind needs is missing or the occurrence is below 1
         */
        public Fault {
            Objects.requireNonNull(signature, "signature");
            Objects.requireNonNull(kind, "kind");
            if (occurrence < 1) {
                throw new IllegalArgumentException("occurrence counts from 1, not " + occurrence);
            }
            if (kind == Kind.ERROR_REPLY && (errorLine == null || errorLine.isBlank() || errorLine.contains("\r")
                    || errorLine.contains("\n"))) {
                throw new IllegalArgumentException("an error reply needs one line of text, not " + errorLine);
            }
            if (kind == Kind.NO_ANSWER && (hold == null || hold.isNegative())) {
                throw new IllegalArgumentException("no answer needs a hold of zero or more, not " + hold);
            }
            if (kind == Kind.ERROR_REPLY && hold != null && hold.isNegative()) {
                throw new IllegalArgumentException("an error reply is held for zero or more, not " + hold);
            }
        }

        /** @return a fault answering the entry with {@code errorLine} (such as {@link FaultProxy#BUSY}) */
        public static Fault errorReply(String signature, int occurrence, String errorLine) {
            return new Fault(signature, occurrence, Kind.ERROR_REPLY, errorLine, null);
        }

        /**
         * @return a fault answering the entry with {@code errorLine} after {@code hold}, holding the
         *         replies after it too, while the commands sent meanwhile reach Redis
         */
        public static Fault heldErrorReply(String signature, int occurrence, String errorLine, Duration hold) {
            return new Fault(signature, occurrence, Kind.ERROR_REPLY, errorLine, Objects.requireNonNull(hold, "hold"));
        }

        /** @return a fault holding the entry's reply, and those after it, for {@code hold} */
        public static Fault noAnswer(String signature, int occurrence, Duration hold) {
            return new Fault(signature, occurrence, Kind.NO_ANSWER, null, hold);
        }

        /** @return a fault closing the connection instead of forwarding the entry */
        public static Fault dropBefore(String signature, int occurrence) {
            return new Fault(signature, occurrence, Kind.DROP_BEFORE, null, null);
        }

        /** @return a fault closing the connection once Redis answered the entry, undelivered */
        public static Fault dropAfter(String signature, int occurrence) {
            return new Fault(signature, occurrence, Kind.DROP_AFTER, null, null);
        }

        /** @return a fault dropping the pub/sub message push of that signature ({@code MESSAGE <label>}) */
        public static Fault losePush(String signature, int occurrence) {
            return new Fault(signature, occurrence, Kind.LOSE_PUSH, null, null);
        }

        @Override
        public String toString() {
            return signature + "#" + occurrence + " " + kind
                    + (errorLine != null ? " (" + errorLine.split(" ", 2)[0] + ")" : "")
                    + (hold != null ? " (" + hold.toMillis() + " ms)" : "");
        }
    }

    /**
     * One command the proxy read from a client, or one message Redis pushed to one.
     *
     * @param sequence   the order in which the proxy saw it, from 1, across every connection
     * @param connection the connection's id, from 1, in the order the proxy accepted them
     * @param signature  the command's name (and label), or {@code MESSAGE <channel label>}
     * @param push       true for a pub/sub message Redis pushed, false for a client's command
     * @param nanoTime   {@link System#nanoTime()} when the proxy read it
     */
    public record Traced(long sequence, int connection, String signature, boolean push, long nanoTime) {
        @Override
        public String toString() {
            return sequence + "@" + connection + " " + signature;
        }
    }

    private FaultProxy(ServerSocket listener, int targetPort, Function<String, String> scriptLabels,
                       Function<String, String> channelLabels) {
        this.listener = listener;
        this.targetPort = targetPort;
        this.scriptLabels = scriptLabels;
        this.channelLabels = channelLabels;
    }

    /**
     * A proxy that labels scripts by the first 8 characters of their SHA-1 and channels by name.
     *
     * @param target the node to forward to
     * @return the proxy, accepting connections already
     */
    public static FaultProxy inFrontOf(RedisNode target) {
        return inFrontOf(target, sha -> null, channel -> channel);
    }

    /**
     * @param target        the node to forward to
     * @param scriptLabels  a script's SHA-1 (lower-case hex) to its label, such as an operation's
     *                      name; null for an unknown script, which is labelled by 8 characters of its SHA-1
     * @param channelLabels a channel to its label in push signatures, so that a channel named after
     *                      a random id gets the same label in every run; null keeps the name
     * @return the proxy, accepting connections already
     * @throws UncheckedIOException if no loopback port can be bound
     */
    public static FaultProxy inFrontOf(RedisNode target, Function<String, String> scriptLabels,
                                       Function<String, String> channelLabels) {
        Objects.requireNonNull(scriptLabels, "scriptLabels");
        Objects.requireNonNull(channelLabels, "channelLabels");
        try {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            FaultProxy proxy = new FaultProxy(listener, target.port(), scriptLabels, channelLabels);
            proxy.start("fault-proxy-" + listener.getLocalPort() + "-accept", proxy::accept);
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not bind a loopback port for a proxy to port " + target.port(), e);
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
     * @return how many connections are open now (both sides open)
     */
    public int connections() {
        return links.size();
    }

    /**
     * @return every command and push seen since the start or the last {@link #clearTrace()}, in order
     */
    public List<Traced> trace() {
        synchronized (trace) {
            return List.copyOf(trace);
        }
    }

    /**
     * Forgets the trace recorded so far.
     */
    public void clearTrace() {
        synchronized (trace) {
            trace.clear();
        }
    }

    /**
     * Arms one fault, replacing any armed before; occurrences are counted from now.
     *
     * @param fault the fault
     */
    public void arm(Fault fault) {
        Objects.requireNonNull(fault, "fault");
        synchronized (faultLock) {
            armed = fault;
            seen = 0;
            fired = new CountDownLatch(1);
            firedAt = null;
        }
    }

    /**
     * Disarms the fault, fired or not.
     */
    public void disarm() {
        synchronized (faultLock) {
            armed = null;
        }
    }

    /**
     * @return the entry the armed fault hit, or null while it has not fired
     */
    public Traced fired() {
        synchronized (faultLock) {
            return firedAt;
        }
    }

    /**
     * @param timeout how long to wait at most
     * @return the entry the armed fault hit, or null if it did not fire within {@code timeout}
     * @throws IllegalStateException if nothing is armed, or when interrupted
     */
    public Traced awaitFired(Duration timeout) {
        CountDownLatch latch;
        synchronized (faultLock) {
            if (armed == null && firedAt == null) {
                throw new IllegalStateException("No fault is armed");
            }
            latch = fired;
        }
        try {
            return latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? fired() : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the fault to fire", e);
        }
    }

    /**
     * Stops accepting, closes every connection, and ends every thread the proxy started (waiting
     * up to a few seconds for them).
     */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        links.forEach(Link::close);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(THREAD_JOIN_MILLIS);
        for (Thread thread : threads) {
            if (thread == Thread.currentThread()) {
                continue;
            }
            try {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * @return the proxy's threads still alive, for a check that {@link #close()} ended them
     */
    public List<String> threadsAlive() {
        return threads.stream().filter(Thread::isAlive).map(Thread::getName).sorted().toList();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // the listener was closed
            }
            Socket server = new Socket();
            try {
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(server);
                closeQuietly(client);
                continue;
            }
            Link link = new Link(connectionIds.incrementAndGet(), client, server);
            links.add(link);
            if (closed) {
                link.close();
                return;
            }
            link.start();
        }
    }

    private void start(String name, Runnable task) {
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /** Records an entry and says whether the armed fault picks it (and then fires). */
    private Fault record(int connection, String signature, boolean push) {
        Traced entry = new Traced(sequence.incrementAndGet(), connection, signature, push, System.nanoTime());
        synchronized (trace) {
            trace.add(entry);
        }
        synchronized (faultLock) {
            if (armed == null || !armed.signature().equals(signature) || (armed.kind() == Kind.LOSE_PUSH) != push) {
                return null;
            }
            seen++;
            if (seen != armed.occurrence()) {
                return null;
            }
            Fault hit = armed;
            armed = null;
            firedAt = entry;
            fired.countDown();
            return hit;
        }
    }

    private String signatureOf(RespFrame command) {
        String name = command.head().isEmpty() || command.head().get(0) == null ? ""
                : command.head().get(0).toUpperCase(Locale.ROOT);
        String argument = command.head().size() > 1 ? command.head().get(1) : null;
        if ((name.equals("EVALSHA") || name.equals("EVALSHA_RO")) && argument != null) {
            return name + " " + scriptLabel(argument.toLowerCase(Locale.ROOT));
        }
        if ((name.equals("EVAL") || name.equals("EVAL_RO")) && argument != null) {
            return name + " " + scriptLabel(sha1(argument));
        }
        if (CONTAINER_COMMANDS.contains(name) && argument != null) {
            return name + " " + argument.toUpperCase(Locale.ROOT);
        }
        return name;
    }

    private String scriptLabel(String sha) {
        String label = scriptLabels.apply(sha);
        return label != null ? label : sha.substring(0, Math.min(8, sha.length()));
    }

    private String channelLabel(String channel) {
        String label = channel == null ? null : channelLabels.apply(channel);
        return label != null ? label : String.valueOf(channel);
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JVM has no SHA-1, which every Java platform must have", e);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed or broken: nothing left to release
        }
    }

    /**
     * One place in a connection's reply stream: a command's reply (from Redis or made here), or
     * a push, delivered strictly in order by the delivery thread.
     */
    private static final class Slot {
        /** How many frames fill it; -1: confirmations until one counts 0 subscriptions left. */
        final int expected;
        /** For the subscribe family: the confirmation kind that fills it, such as {@code subscribe}. */
        final String confirms;
        final List<byte[]> frames = new ArrayList<>();
        /** Not before this System.nanoTime(); 0 for at once. */
        final long releaseAt;
        /** Close the connection instead of delivering it. */
        final boolean dropAndClose;
        boolean complete;

        Slot(int expected, String confirms, long releaseAt, boolean dropAndClose) {
            this.expected = expected;
            this.confirms = confirms;
            this.releaseAt = releaseAt;
            this.dropAndClose = dropAndClose;
        }

        static Slot ready(byte[] frame, long releaseAt) {
            Slot slot = new Slot(1, null, releaseAt, false);
            slot.frames.add(frame);
            slot.complete = true;
            return slot;
        }

        void add(RespFrame frame) {
            frames.add(frame.raw());
            if (frame.isError() || confirms == null) {
                complete = true;
            } else if (expected < 0) {
                complete = "0".equals(frame.head().size() > 2 ? frame.head().get(2) : null);
            } else {
                complete = frames.size() >= expected;
            }
        }
    }

    /**
     * One client connection and its connection to Redis. Threads: {@code up} reads the client's
     * commands, records them, applies the fault and forwards; {@code down} reads Redis's frames
     * and fills the slots; {@code delivery} writes complete slots to the client, in order, when
     * their hold has passed. All three share the slot queue under {@code this}.
     */
    private final class Link {
        private final int id;
        private final Socket client;
        private final Socket server;
        private final Deque<Slot> slots = new ArrayDeque<>();
        /** Stop once every slot is delivered, then close (after a drop before a command). */
        private boolean closeWhenDelivered;
        /** The client sent a subscribe-family command: RESP2 arrays may be pushes from now on. */
        private volatile boolean subscribed;
        private volatile boolean linkClosed;

        Link(int id, Socket client, Socket server) {
            this.id = id;
            this.client = client;
            this.server = server;
        }

        void start() {
            String name = "fault-proxy-" + port() + "-" + id;
            FaultProxy.this.start(name + "-up", this::up);
            FaultProxy.this.start(name + "-down", this::down);
            FaultProxy.this.start(name + "-delivery", this::deliver);
        }

        private void up() {
            try {
                RespFrame.Reader in = new RespFrame.Reader(client.getInputStream());
                OutputStream out = server.getOutputStream();
                while (!linkClosed) {
                    RespFrame command = in.next();
                    String signature = signatureOf(command);
                    String name = signature.split(" ", 2)[0];
                    Fault fault = record(id, signature, false);
                    Kind kind = fault == null ? null : fault.kind();
                    if (kind == Kind.ERROR_REPLY) {
                        enqueue(Slot.ready(("-" + fault.errorLine() + "\r\n").getBytes(StandardCharsets.UTF_8),
                                fault.hold() == null ? 0 : System.nanoTime() + fault.hold().toNanos()));
                        continue;
                    }
                    if (kind == Kind.DROP_BEFORE) {
                        synchronized (this) {
                            closeWhenDelivered = true;
                            notifyAll();
                        }
                        return; // nothing more reaches Redis
                    }
                    boolean subscribing = SUBSCRIBING.contains(name);
                    if (subscribing) {
                        subscribed = true;
                    }
                    int channels = command.size() - 1;
                    Slot slot = new Slot(subscribing ? (channels > 0 ? channels : -1) : 1,
                            subscribing ? name.toLowerCase(Locale.ROOT) : null,
                            kind == Kind.NO_ANSWER ? System.nanoTime() + fault.hold().toNanos() : 0,
                            kind == Kind.DROP_AFTER);
                    // The slot first, then the bytes: Redis's reply can come before write() returns.
                    enqueue(slot);
                    out.write(command.raw());
                    out.flush();
                    if (kind == Kind.DROP_AFTER) {
                        return; // nothing after it reaches Redis; delivery closes once it is answered
                    }
                }
            } catch (IOException e) {
                close(); // the client closed (EOF) or the connection broke
            }
        }

        private void down() {
            try {
                RespFrame.Reader in = new RespFrame.Reader(server.getInputStream());
                while (!linkClosed) {
                    RespFrame frame = in.next();
                    String kind = frame.lowerHead(0);
                    boolean aggregate = frame.type() == '>' || (frame.type() == '*' && subscribed);
                    if (aggregate && MESSAGES.contains(kind)) {
                        String channel = kind.equals("pmessage") ? frame.head().get(2) : frame.head().get(1);
                        Fault fault = record(id, kind.toUpperCase(Locale.ROOT) + " " + channelLabel(channel), true);
                        if (fault == null) {
                            enqueuePush(frame.raw());
                        }
                        continue;
                    }
                    fill(frame, aggregate && CONFIRMATIONS.contains(kind) ? kind : null, frame.type() == '>');
                }
            } catch (EOFException e) {
                close(); // Redis closed the connection
            } catch (IOException e) {
                close();
            }
        }

        private synchronized void enqueue(Slot slot) {
            slots.addLast(slot);
            notifyAll();
        }

        /** A push goes right after what Redis sent before it: before the first slot still unanswered. */
        private synchronized void enqueuePush(byte[] frame) {
            insertBeforeFirstIncomplete(Slot.ready(frame, 0));
        }

        private void insertBeforeFirstIncomplete(Slot ready) {
            List<Slot> after = new ArrayList<>();
            while (!slots.isEmpty() && !slots.peekLast().complete) {
                after.add(0, slots.pollLast());
            }
            slots.addLast(ready);
            after.forEach(slots::addLast);
            notifyAll();
        }

        /**
         * A confirmation fills the first open slot of its kind; any other reply the first open
         * slot; a frame no slot waits for (an unsolicited push) passes in order.
         */
        private synchronized void fill(RespFrame frame, String confirmation, boolean push) {
            for (Slot slot : slots) {
                if (slot.complete) {
                    continue;
                }
                boolean fits = confirmation != null ? confirmation.equals(slot.confirms) : !push;
                if (fits) {
                    slot.add(frame);
                    notifyAll();
                    return;
                }
                break;
            }
            insertBeforeFirstIncomplete(Slot.ready(frame.raw(), 0));
        }

        private void deliver() {
            try {
                OutputStream out = client.getOutputStream();
                while (true) {
                    Slot next;
                    synchronized (this) {
                        while (true) {
                            if (linkClosed) {
                                return;
                            }
                            Slot head = slots.peekFirst();
                            if (head == null) {
                                if (closeWhenDelivered) {
                                    break;
                                }
                                wait();
                                continue;
                            }
                            long early = head.releaseAt == 0 ? 0 : head.releaseAt - System.nanoTime();
                            if (head.complete && early <= 0) {
                                break;
                            }
                            if (early > 0) {
                                TimeUnit.NANOSECONDS.timedWait(this, early);
                            } else {
                                wait();
                            }
                        }
                        next = slots.pollFirst();
                    }
                    if (next == null || next.dropAndClose) {
                        close();
                        return;
                    }
                    for (byte[] frame : next.frames) {
                        out.write(frame);
                    }
                    out.flush();
                }
            } catch (IOException e) {
                close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
            }
        }

        void close() {
            synchronized (this) {
                linkClosed = true;
                notifyAll();
            }
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
        }
    }
}
