package dev.locksmith.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No test learns where a thread is from the thread: its state, its stack frames or the JVM's thread
 * dump. Such a test passes or fails with the implementation's method names and the scheduler's
 * timing; a test asks the lock or the protocol object its state instead. {@code testing/LiveThreads},
 * which lists Locksmith's threads by name for leak checks and describes a stuck one in a failure
 * message, is the one place allowed to read them (beside this test's own examples). A recorded event's or a failure's stack trace
 * ({@code event.getStackTrace()}, {@code failure.getStackTrace()}) is not a thread's whereabouts.
 */
class ThreadWhereaboutsTest {
    private static final List<Path> TEST_SOURCES = List.of(Path.of("src/test/java"), Path.of("../test-support/src"),
            Path.of("../src-it/src/test/java"), Path.of("../virtual-threads/src/test/java"),
            Path.of("../lettuce6-compat/src/test/java"), Path.of("../benchmarks/src"));
    private static final Pattern WHEREABOUTS = Pattern.compile("getAllStackTraces|StackWalker|ThreadMXBean|getThreadInfo"
            + "|Thread\\.State|(?i:thread\\w*(\\(\\))?)\\.get(StackTrace|State)\\(\\)");
    // AllocationPerCycle, a benchmark tool, reads how many bytes each thread allocated, through the
    // same bean, and nothing of where a thread is.
    private static final Set<String> ALLOWED = Set.of("LiveThreads.java", "ThreadWhereaboutsTest.java",
            "AllocationPerCycle.java");

    @Test
    void onlyLiveThreadsReadsAThreadsStateOrFrames() {
        List<String> found = new ArrayList<>();
        for (Path root : TEST_SOURCES) {
            for (Path source : javaFiles(root)) {
                if (ALLOWED.contains(source.getFileName().toString())) {
                    continue;
                }
                List<String> lines = read(source);
                for (int i = 0; i < lines.size(); i++) {
                    if (WHEREABOUTS.matcher(lines.get(i)).find()) {
                        found.add(source + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }

        assertThat(found).as("tests that read a thread's state or frames; ask the protocol object instead,"
                + " or list threads through LiveThreads").isEmpty();
    }

    @Test
    void thePatternCatchesWhatItIsFor() {
        assertThat(WHEREABOUTS.matcher("holder.getState() == Thread.State.WAITING").find()).isTrue();
        assertThat(WHEREABOUTS.matcher("waitingThread.getStackTrace()").find()).isTrue();
        assertThat(WHEREABOUTS.matcher("Thread.getAllStackTraces().keySet()").find()).isTrue();
        assertThat(WHEREABOUTS.matcher("event.getStackTrace().getFrames()").find()).isFalse();
    }

    private static List<Path> javaFiles(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(path -> path.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(Path source) {
        try {
            return Files.readAllLines(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
