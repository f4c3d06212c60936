package dev.locksmith.vthreads;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * A Flight Recorder recording of every pinned virtual thread ({@code jdk.VirtualThreadPinned} with
 * threshold 0 and stack traces) and of every Locksmith event at threshold 0, as a server whose operators
 * record Locksmith's events runs. Stop it to read what pinned.
 */
final class PinRecording implements AutoCloseable {
    private final RecordingStream stream = new RecordingStream();
    private final List<RecordedEvent> events = new CopyOnWriteArrayList<>();
    private volatile Instant countFrom = Instant.MIN;

    private PinRecording() {
    }

    static PinRecording start() {
        PinRecording pins = new PinRecording();
        pins.stream.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
        for (String name : List.of("LockWait", "LockHeld", "LockLost", "LockSkipped", "LockHandOver", "LockYield",
                "LockReleaseFailed", "FencedWriteRefused")) {
            pins.stream.enable("dev.locksmith." + name).withThreshold(Duration.ZERO).withStackTrace();
        }
        // A stream, as JDK Mission Control or an agent reads a production recording: it flushes every
        // second, and each flush starts a new generation of Flight Recorder's string pool, so the next
        // event to name a lock sends its strings to the JVM again, under the pool's monitor.
        pins.stream.setReuse(false);
        pins.stream.onEvent(pins.events::add);
        pins.stream.startAsync();
        return pins;
    }

    /**
     * Leaves what was recorded so far (the first use of every class) out of {@link #stop()}'s answer.
     */
    void countFromNow() {
        countFrom = Instant.now();
    }

    /**
     * @return what the recording saw from {@link #countFromNow()} (or its start) until now
     */
    Pins stop() {
        stream.stop(); // delivers every event recorded so far, then returns
        Instant from = countFrom;
        return Pins.of(events.stream().filter(event -> !event.getStartTime().isBefore(from)).toList());
    }

    @Override
    public void close() {
        stream.close();
    }

    /**
     * The pins of a recording, sorted by who caused them, and Locksmith's own events.
     *
     * @param locksmith     pins with a Locksmith frame on the stack, outside any first use
     * @param firstUse      pins with a Locksmith frame while the JDK does what it does once per class or call
     *                      site: loads or initializes a class, waits for another thread to initialize it, or
     *                      links a lambda, method reference or string concatenation
     * @param elsewhere     pins without a Locksmith frame (the JDK's or a test's)
     * @param locksmithEvents the {@code dev.locksmith.*} events recorded
     */
    record Pins(List<RecordedEvent> locksmith, List<RecordedEvent> firstUse, List<RecordedEvent> elsewhere,
                List<RecordedEvent> locksmithEvents) {

        static Pins of(List<RecordedEvent> events) {
            List<RecordedEvent> pinned = events.stream()
                    .filter(event -> event.getEventType().getName().equals("jdk.VirtualThreadPinned")).toList();
            List<RecordedEvent> ours = pinned.stream().filter(Pins::hasLocksmithFrame).toList();
            return new Pins(ours.stream().filter(event -> !isFirstUse(event)).toList(),
                    ours.stream().filter(Pins::isFirstUse).toList(),
                    pinned.stream().filter(event -> !hasLocksmithFrame(event)).toList(),
                    events.stream().filter(event -> event.getEventType().getName().startsWith("dev.locksmith."))
                            .toList());
        }

        /**
         * @return one line per kind of pin, for the test's output and the documentation
         */
        String summary() {
            return "jdk.VirtualThreadPinned from Locksmith's frames: " + locksmith.size()
                    + "; at the first use of a class or call site: " + firstUse.size()
                    + "; without Locksmith's frames: " + elsewhere.size()
                    + "; Locksmith events recorded: " + locksmithEvents.size();
        }

        /**
         * @return the stacks of the first pins from Locksmith's frames, for a failure message
         */
        String firstStacks() {
            StringBuilder text = new StringBuilder();
            locksmith.stream().limit(3).forEach(event -> {
                text.append("\npinned for ").append(event.getDuration()).append(':');
                frames(event).stream().limit(25).forEach(frame -> text.append("\n    at ")
                        .append(frame.getMethod().getType().getName()).append('.').append(frame.getMethod().getName())
                        .append(':').append(frame.getLineNumber()));
            });
            return text.toString();
        }

        private static boolean hasLocksmithFrame(RecordedEvent event) {
            return frames(event).stream().anyMatch(frame -> frame.getMethod().getType().getName()
                    .startsWith("dev.locksmith.") && !frame.getMethod().getType().getName()
                    .startsWith("dev.locksmith.vthreads."));
        }

        private static boolean isFirstUse(RecordedEvent event) {
            return loadsAClass(event) || linksACallSite(event);
        }

        // The JDK pins a virtual thread while it loads or initializes a class (a native frame of the
        // class loader, or a static initializer), and while it waits for another thread to finish
        // initializing one (JDK 24+ says so in pinnedReason): once per class, at its first use.
        private static boolean loadsAClass(RecordedEvent event) {
            if (event.hasField("pinnedReason") && String.valueOf(event.getString("pinnedReason"))
                    .startsWith("Waited for initialization of ")) {
                return true;
            }
            return frames(event).stream().anyMatch(frame -> {
                String type = frame.getMethod().getType().getName();
                String method = frame.getMethod().getName();
                return method.equals("<clinit>") || type.startsWith("jdk.internal.loader.")
                        || type.equals("java.lang.ClassLoader") && method.startsWith("loadClass");
            });
        }

        // The JVM links an invokedynamic call site (a lambda, a method reference, a string concatenation)
        // the first time a thread reaches it, through an up-call into MethodHandleNatives with the VM's
        // native frame below: a virtual thread that blocks there cannot unmount. Once linked, the call
        // site never comes back here, so this too happens once per call site and process.
        private static boolean linksACallSite(RecordedEvent event) {
            return frames(event).stream()
                    .anyMatch(frame -> frame.getMethod().getType().getName().equals("java.lang.invoke.MethodHandleNatives"));
        }

        private static List<RecordedFrame> frames(RecordedEvent event) {
            return event.getStackTrace() == null ? List.of() : event.getStackTrace().getFrames();
        }
    }
}
