package dev.locksmith.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * The recording settings of {@link PathTrace} and what it reads back from its two recordings:
 * the library's classes each thread ran inside the path's windows, in the order of their first
 * call.
 */
final class TraceRecordings {
    private static final String TRACE_EVENT = "jdk.MethodTrace";
    /** What a call reports to operators (metrics, spans, JFR events), apart from what it does. */
    private static final List<String> TELEMETRY = List.of("dev.locksmith.internal.observe.",
            "dev.locksmith.internal.jfr.", "dev.locksmith.internal.otel.");

    private TraceRecordings() {
    }

    /**
     * @return a {@code .jfc} that records only the calls of those classes, without stack traces
     */
    static String settings(List<String> classes) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <configuration version="2.0" label="Locksmith path trace">
                  <event name="jdk.MethodTrace">
                    <setting name="enabled">true</setting>
                    <setting name="filter">%s</setting>
                    <setting name="threshold">0 ms</setting>
                    <setting name="stackTrace">false</setting>
                  </event>
                </configuration>
                """.formatted(String.join(";", classes));
    }

    /**
     * @return the path as markdown: per process and thread, the classes in the order of their
     *         first call, and how many distinct classes there are in all
     */
    static String report(Path holderRecording, Path waiterRecording) throws IOException {
        List<Call> holder = calls(holderRecording);
        List<Call> waiter = calls(waiterRecording);
        Call lock = last(waiter, "tracedLock");
        Call unlock = last(holder, "tracedUnlock");
        Map<String, Set<String>> threads = new LinkedHashMap<>();
        collect("B", waiter, lock.start, lock.end, threads);
        collect("A", holder, unlock.start, lock.end, threads);
        Set<String> all = new TreeSet<>();
        threads.values().forEach(all::addAll);
        List<String> engine = all.stream().filter(name -> TELEMETRY.stream().noneMatch(name::startsWith)).toList();
        StringBuilder out = new StringBuilder("# The path of one contended lock() across two processes\n\n")
                .append("Process A holds the lock and releases it; process B's thread waits in lock() and takes it. ")
                .append("Recorded by method tracing (jdk.MethodTrace): B's classes while its lock() ran, ")
                .append("A's from its unlock() until B's lock() returned. Nested classes count as their own.\n\n")
                .append("| process, thread | classes | in the order of their first call |\n|---|---:|---|\n");
        threads.forEach((thread, classes) -> out.append("| ").append(thread).append(" | ").append(classes.size())
                .append(" | ").append(String.join(" → ", simple(classes))).append(" |\n"));
        out.append("\n**").append(all.size()).append(" distinct classes** on ").append(threads.size())
                .append(" threads; **").append(engine.size()).append("** of them outside telemetry (")
                .append(String.join(", ", TELEMETRY.stream().map(p -> p.substring(0, p.length() - 1)).toList()))
                .append("): ").append(String.join(", ", simple(engine))).append("\n");
        return out.toString();
    }

    private static void collect(String process, List<Call> calls, Instant from, Instant to,
                                Map<String, Set<String>> threads) {
        calls.stream()
                .filter(call -> !call.start.isBefore(from) && !call.start.isAfter(to))
                .filter(call -> !call.className.equals(PathTrace.class.getName()))
                .sorted(Comparator.comparing(Call::start))
                .forEach(call -> threads.computeIfAbsent(process + ", " + call.thread, t -> new LinkedHashSet<>())
                        .add(call.className));
    }

    private static List<String> simple(java.util.Collection<String> classNames) {
        return classNames.stream().map(name -> name.substring(name.lastIndexOf('.') + 1)).toList();
    }

    private static Call last(List<Call> calls, String method) {
        return calls.stream().filter(call -> call.className.equals(PathTrace.class.getName()) && call.method.equals(method))
                .max(Comparator.comparing(Call::start))
                .orElseThrow(() -> new IllegalStateException("The recording has no call of PathTrace." + method));
    }

    private static List<Call> calls(Path recording) throws IOException {
        List<Call> calls = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (event.getEventType().getName().equals(TRACE_EVENT)) {
                calls.add(new Call(event.getThread() == null ? "?" : event.getThread().getJavaName(),
                        event.getStartTime(), event.getEndTime(),
                        event.getValue("method.type.name").toString().replace('/', '.'),
                        event.getValue("method.name").toString()));
            }
        }
        return calls;
    }

    private record Call(String thread, Instant start, Instant end, String className, String method) {
    }
}
