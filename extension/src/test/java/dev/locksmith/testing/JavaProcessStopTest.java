package dev.locksmith.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code JavaProcess.signal("STOP")} returns only once the JVM is frozen, even a thread of it
 * that was running on a core when the signal was sent.
 */
class JavaProcessStopTest {

    @Test
    void stopReturnsOnceEveryThreadOfTheJvmStopped() {
        try (JavaProcess spinner = JavaProcess.start(Spinner.class)) {
            spinner.awaitLine("SPINNING", Duration.ofSeconds(30));

            spinner.signal("STOP");
            assertThat(ThreadStates.allStopped(spinner.pid())).as("frozen when signal() returned").isTrue();

            spinner.signal("CONT");
            Await.until("running again", Duration.ofSeconds(10), () -> !ThreadStates.allStopped(spinner.pid()));
        }
    }

    /** A JVM with a thread that never stops running. */
    public static final class Spinner {
        private static volatile long spins;

        public static void main(String[] args) throws InterruptedException {
            Thread spinning = new Thread(() -> {
                while (true) {
                    spins++;
                }
            }, "spinning");
            spinning.setDaemon(true);
            spinning.start();
            System.out.println("SPINNING");
            spinning.join();
        }
    }
}
