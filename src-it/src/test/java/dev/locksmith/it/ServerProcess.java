package dev.locksmith.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The process of one application server, whatever the runtime: started from a command, counted
 * as up when its console has shown every "started" message, failed at once on any failure
 * message, its console kept. A server whose launch script runs the JVM as a child (WildFly's
 * {@code standalone.sh}) is killed and stopped through that JVM, so {@code kill -9} hits the
 * server itself.
 */
final class ServerProcess {
    private static final List<Process> RUNNING = Collections.synchronizedList(new ArrayList<>());

    static {
        // If the test JVM ends without closing us (an abort, a failsafe timeout), take the servers along.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(RUNNING).forEach(process -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        })));
    }

    private final String title;
    private final Process process;
    private final List<String> console = Collections.synchronizedList(new ArrayList<>());
    private final CompletableFuture<Void> consoleEnded = new CompletableFuture<>();

    private ServerProcess(String title, Process process) {
        this.title = title;
        this.process = process;
    }

    /**
     * @param title    the server, for messages
     * @param command  how to run it; its output is read, with errors merged in
     * @param started  messages that must all appear before the server counts as started
     * @param failures messages that mean it will not start
     * @param timeout  how long starting may take
     * @return the started server
     * @throws IllegalStateException with the console's last lines if it did not start
     */
    static ServerProcess start(String title, ProcessBuilder command, List<String> started, List<String> failures,
            Duration timeout) {
        CompletableFuture<Void> up = new CompletableFuture<>();
        ServerProcess server = launch(title, command, started, failures, up);
        try {
            up.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return server;
        } catch (TimeoutException | ExecutionException e) {
            String tail = server.consoleTail(80);
            server.kill();
            throw new IllegalStateException(title + " did not start within " + timeout + ": "
                    + (e instanceof ExecutionException ? e.getCause().getMessage() : "timed out") + "\n" + tail, e);
        } catch (InterruptedException e) {
            server.kill();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + title, e);
        }
    }

    /**
     * Runs a server that is expected to fail its startup, until its process ends by itself.
     *
     * @param title   the server, for messages
     * @param command how to run it; its output is read, with errors merged in
     * @param timeout how long it may take to end
     * @return how it ended, and its whole console
     * @throws IllegalStateException with the console's last lines if it still ran after {@code timeout}
     *                               (it is then killed)
     */
    static Ended runToEnd(String title, ProcessBuilder command, Duration timeout) {
        ServerProcess server = launch(title, command, List.of(), List.of(), new CompletableFuture<>());
        try {
            if (!server.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                String tail = server.consoleTail(80);
                server.kill();
                throw new IllegalStateException(title + " still ran " + timeout + " after it was started:\n" + tail);
            }
            // The console ends when the process has gone; wait for its last lines.
            server.consoleEnded.get(30, TimeUnit.SECONDS);
            return new Ended(server.process.exitValue(), server.console());
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException(title + " ended, but its console did not", e);
        } catch (InterruptedException e) {
            server.kill();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + title, e);
        } finally {
            RUNNING.remove(server.process);
        }
    }

    /**
     * @param up completed when every started message has appeared, failed on a failure message or
     *           when the console ends first
     * @return the started process, its console being read
     */
    private static ServerProcess launch(String title, ProcessBuilder command, List<String> started,
            List<String> failures, CompletableFuture<Void> up) {
        Process process;
        try {
            process = command.redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + command.command(), e);
        }
        RUNNING.add(process);
        ServerProcess server = new ServerProcess(title, process);
        Thread reader = new Thread(() -> server.readConsole(started, failures, up), title + "-console");
        reader.setDaemon(true);
        reader.start();
        return server;
    }

    /**
     * A server process that ended by itself.
     *
     * @param exitCode its exit code
     * @param console  every line it wrote
     */
    record Ended(int exitCode, List<String> console) {
    }

    private void readConsole(List<String> started, List<String> failures, CompletableFuture<Void> up) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            Set<String> seen = new HashSet<>();
            while ((line = in.readLine()) != null) {
                console.add(line);
                for (String message : started) {
                    if (line.contains(message)) {
                        seen.add(message);
                    }
                }
                if (seen.size() == started.size()) {
                    up.complete(null);
                }
                for (String failure : failures) {
                    if (line.contains(failure)) {
                        up.completeExceptionally(new IllegalStateException(line));
                    }
                }
            }
        } catch (IOException e) {
            // the process was killed; its console ends here
        }
        up.completeExceptionally(new IllegalStateException("the server process ended"));
        consoleEnded.complete(null);
    }

    /**
     * @return the server's JVM: the process itself, or the JVM its launch script started
     */
    ProcessHandle jvm() {
        return process.descendants()
                .filter(child -> child.info().command().map(command -> command.endsWith("/java")).orElse(false))
                .findFirst().orElse(process.toHandle());
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Sends a signal that Java has no API for, such as STOP and CONT, with {@code kill}.
     *
     * @param process the process
     * @param signal  the signal's name without {@code SIG}
     * @throws IllegalStateException if {@code kill} failed
     */
    static void signal(ProcessHandle process, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run kill -" + signal + " " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to " + process.pid(), e);
        }
    }

    /**
     * SIGKILL to the server's JVM, as a crash would end it.
     */
    void kill() {
        end(true);
    }

    /**
     * SIGTERM to the server's JVM, its orderly shutdown; SIGKILL if it has not ended within a minute.
     */
    void stop() {
        end(false);
    }

    private void end(boolean crash) {
        if (!process.isAlive()) {
            RUNNING.remove(process);
            return;
        }
        ProcessHandle jvm = jvm();
        try {
            if (crash) {
                jvm.destroyForcibly();
            } else {
                jvm.destroy();
            }
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.remove(process);
        }
    }

    /**
     * @return every console line so far
     */
    List<String> console() {
        synchronized (console) {
            return List.copyOf(console);
        }
    }

    /**
     * @return the last {@code count} console lines, one per line
     */
    String consoleTail(int count) {
        List<String> lines = console();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size())) + "\n";
    }

    @Override
    public String toString() {
        return title;
    }
}
