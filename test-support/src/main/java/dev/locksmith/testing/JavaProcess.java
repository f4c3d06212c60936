package dev.locksmith.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Another JVM running a main class from the test class path, for tests that need several
 * processes. Its output lines are kept; {@link #awaitLine} waits for one with a deadline.
 */
public final class JavaProcess implements AutoCloseable {
    private final Process process;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentHashMap<String, CompletableFuture<String>> awaited = new ConcurrentHashMap<>();

    private JavaProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readOutput, "jvm-" + process.pid() + "-out");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param mainClass a class with a main method on the test class path
     * @param args      its arguments
     */
    public static JavaProcess start(Class<?> mainClass, String... args) {
        return start(System.getProperty("java.class.path"), List.of(), mainClass, args);
    }

    /**
     * @param classPath   the class path of the new JVM, for example the test class path without
     *                    the jars of an API whose absence is tested
     * @param jvmOptions  options such as {@code -Dkey=value}
     * @param mainClass   a class with a main method on that class path
     * @param args        its arguments
     */
    public static JavaProcess start(String classPath, List<String> jvmOptions, Class<?> mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        try {
            return new JavaProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start a JVM for " + mainClass.getName(), e);
        }
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                output.add(line);
                for (var entry : awaited.entrySet()) {
                    if (line.startsWith(entry.getKey())) {
                        entry.getValue().complete(line);
                    }
                }
            }
        } catch (IOException e) {
            // the process was killed; its output ends here
        }
        awaited.values().forEach(f -> f.completeExceptionally(new IllegalStateException(
                "JVM " + process.pid() + " ended without printing that. Output:\n" + String.join("\n", output()))));
    }

    /**
     * @return the first output line starting with {@code prefix}, waiting up to {@code timeout}
     */
    public String awaitLine(String prefix, Duration timeout) {
        CompletableFuture<String> line = awaited.computeIfAbsent(prefix, p -> new CompletableFuture<>());
        synchronized (output) {
            for (String seen : output) {
                if (seen.startsWith(prefix)) {
                    return seen;
                }
            }
        }
        try {
            return line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("JVM " + process.pid() + " printed no line starting with '" + prefix + "' within "
                    + timeout + ". Output:\n" + String.join("\n", output()), e);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * @return the exit code, waiting up to {@code timeout}
     */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("JVM " + process.pid() + " still runs after " + timeout + ". Output:\n"
                        + String.join("\n", output()));
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * @return the JVM's process id
     */
    public long pid() {
        return process.pid();
    }

    /**
     * @return whether the JVM still runs
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Ends the JVM as a crash would: SIGKILL, no shutdown hooks.
     */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends the JVM a signal, such as {@code STOP} (frozen, its connections stay open) or {@code CONT}.
     * {@code STOP} returns once every thread of the JVM has stopped (where {@code /proc} tells): a
     * thread that runs on for a moment after {@code kill} returns could still answer what the test
     * sends next.
     */
    public void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        if (signal.equals("STOP")) {
            Await.until("every thread of JVM " + process.pid() + " stopped", Duration.ofSeconds(10),
                    () -> ThreadStates.allStopped(process.pid()));
        }
    }

    /**
     * @return every line printed so far
     */
    public List<String> output() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
