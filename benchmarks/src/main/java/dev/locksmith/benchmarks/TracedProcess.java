package dev.locksmith.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One JVM of {@link PathTrace}, recording with method tracing into a file of its own, told what
 * to do one line at a time and answering one line at a time.
 */
final class TracedProcess implements AutoCloseable {
    private static final long ANSWER_SECONDS = 30;

    private final String role;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

    private TracedProcess(String role, Process process) {
        this.role = role;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readAnswers, role + "-answers");
        reader.setDaemon(true);
        reader.start();
    }

    private void readAnswers() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(PathTrace.ANSWER)) {
                    answers.add(line.substring(PathTrace.ANSWER.length()));
                } else {
                    System.err.println(role + ": " + line); // the JVM's own, such as JFR's start
                }
            }
        } catch (IOException e) {
            System.err.println(role + ": its output ended with " + e);
        }
    }

    static TracedProcess start(String role, String redisUri, Path settings, Path recording) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:StartFlightRecording:settings=" + settings + ",filename=" + recording,
"-cp", System.getProperty("java.class.path"),
                PathTrace.class.getName(), role, redisUri));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new TracedProcess(role, process);
    }

    void tell(String command) throws IOException {
        commands.write(command + "\n");
        commands.flush();
    }

    /**
     * @throws IllegalStateException when the process answers something else, ends, or says
     *                               nothing for {@value #ANSWER_SECONDS} s
     */
    void await(String answer) throws InterruptedException {
        String line = answers.poll(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (line == null) {
            throw new IllegalStateException("The " + role + " process did not answer " + answer
                    + (process.isAlive() ? " within " + ANSWER_SECONDS + " s" : ": it ended with " + process.exitValue()));
        }
        if (!answer.equals(line)) {
            throw new IllegalStateException("The " + role + " process answered " + line + " where " + answer + " was due");
        }
    }

    void awaitExit() throws InterruptedException {
        if (!process.waitFor(ANSWER_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("The " + role + " process did not exit within " + ANSWER_SECONDS + " s");
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
