package dev.locksmith.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One running {@link BenchmarkWorker} JVM, started with the same {@code java} and class path as
 * this one. Its protocol lines are queued for {@link #await}; the last lines of its output are
 * kept for error messages. Every worker still running when this JVM exits is killed.
 */
final class WorkerJvm implements AutoCloseable {
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    private static final String ENDED = "\0ended";
    private static final int TAIL_LINES = 40;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
                "kill-benchmark-workers"));
    }

    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> protocol = new LinkedBlockingQueue<>();
    private final Deque<String> tail = new ArrayDeque<>();

    private WorkerJvm(Process process) {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readOutput, "worker-" + process.pid() + "-out");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param args      the {@link BenchmarkWorker} arguments
     * @param temporary the worker's {@code java.io.tmpdir}: the run's work directory, which the run
     *                  deletes at its end, so that what a worker leaves there goes with it (Narayana
     *                  writes to its object store even in a shutdown hook, after the client closed)
     * @return the started JVM; close it
     */
    static WorkerJvm start(List<String> args, Path temporary) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xmx512m");
        command.add("-Djava.io.tmpdir=" + temporary);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BenchmarkWorker.class.getName());
        command.addAll(args);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            RUNNING.add(process);
            return new WorkerJvm(process);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start a worker JVM: " + String.join(" ", command), e);
        }
    }

    /**
     * Waits for the next protocol line and checks that it starts with {@code prefix}.
     *
     * @return the line
     * @throws IllegalStateException if the worker failed, ended, or said nothing within {@code timeout},
     *                               with the end of its output
     */
    String await(String prefix, Duration timeout) throws InterruptedException {
        String line = protocol.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw failure("printed no '" + prefix.trim() + "' within " + timeout.toSeconds() + " s");
        }
        if (!line.startsWith(prefix)) {
            throw failure(line.equals(ENDED) ? "ended before printing '" + prefix.trim() + "'" : "answered '" + line + "'");
        }
        return line;
    }

    /**
     * Writes one line to the worker's standard input.
     */
    void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw failure("did not take input '" + line + "': " + e);
        }
    }

    private void readOutput() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
                if (line.equals(BenchmarkWorker.READY) || line.startsWith(BenchmarkWorker.RESULT)
                        || line.startsWith(BenchmarkWorker.FAILED)) {
                    protocol.add(line);
                }
            }
        } catch (IOException e) {
            // The worker was killed; its output ends here.
        }
        protocol.add(ENDED);
    }

    private IllegalStateException failure(String what) {
        String output;
        synchronized (tail) {
            output = String.join("\n", tail);
        }
        return new IllegalStateException("Worker JVM " + process.pid() + " " + what + ". Its last output:\n" + output);
    }

    /**
     * Closes the worker's input (a worker still waiting for its window then exits), gives it
     * 15 s to finish closing its client, then kills it.
     */
    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException e) {
            // Already gone; the kill below makes sure.
        }
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.remove(process);
        }
    }
}
