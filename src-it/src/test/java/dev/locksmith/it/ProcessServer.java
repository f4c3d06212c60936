package dev.locksmith.it;

import java.util.List;

/**
 * What every runtime's server does the same way once its process runs: its name, its JVM, and
 * ending it (see {@link ServerProcess}). Subclasses know how to launch their runtime.
 */
abstract class ProcessServer implements SampleServer {
    private final String name;
    private ServerProcess process;

    ProcessServer(String name) {
        this.name = name;
    }

    /**
     * @param started the process the subclass launched, now started
     */
    final void running(ServerProcess started) {
        this.process = started;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final long pid() {
        return process.jvm().pid();
    }

    @Override
    public final boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public final void kill() {
        if (process != null) {
            process.kill();
        }
    }

    @Override
    public final Frozen freeze() {
        ProcessHandle jvm = process.jvm();
        ServerProcess.signal(jvm, "STOP");
        return () -> ServerProcess.signal(jvm, "CONT");
    }

    @Override
    public final void stop() {
        if (process != null) {
            process.stop();
        }
    }

    /**
     * @return the console: where these runtimes write application log records
     */
    @Override
    public List<String> log() {
        return process == null ? List.of() : process.console();
    }

    /**
     * @return the last {@code lines} of the console, or nothing before the first start
     */
    final String consoleTail(int lines) {
        return process == null ? "" : process.consoleTail(lines);
    }

    @Override
    public String describe() {
        return "---- " + this + (isAlive() ? ", running" : ", not running") + ", console, last 600 lines:\n"
                + consoleTail(600);
    }
}
