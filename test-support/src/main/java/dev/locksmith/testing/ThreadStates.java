package dev.locksmith.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The scheduler states of another process's threads, as Linux's {@code /proc} shows them.
 */
final class ThreadStates {
    private ThreadStates() {
    }

    /**
     * @return true when every thread of the process is stopped ({@code T}, or {@code t} under a
     *         tracer), or when this system has no {@code /proc} to tell (then the caller cannot wait)
     */
    static boolean allStopped(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(Path.of("/proc", "self"))) {
            return true;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            List<Path> all = threads.toList();
            return !all.isEmpty() && all.stream().allMatch(ThreadStates::isStopped);
        } catch (IOException e) {
            return false; // the process is gone, or a thread ended while it was listed: look again
        }
    }

    private static boolean isStopped(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            // "tid (name) S ...": the name may hold spaces and parentheses, so read after the last ')'.
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'T' || state == 't';
        } catch (IOException | RuntimeException e) {
            return true; // the thread ended meanwhile: it runs nothing
        }
    }
}
