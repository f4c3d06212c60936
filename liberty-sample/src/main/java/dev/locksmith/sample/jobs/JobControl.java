package dev.locksmith.sample.jobs;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The switches every scheduled job of the sample obeys before it takes its lock, from
 * configuration: {@code sample.jobs.enabled} turns the jobs on, {@code sample.jobs.skew} (ms) makes
 * this server's timers fire that much late, as a server whose clock runs behind does. Clusters have
 * such skew; a job locked with {@code waitTime = 0} alone would then run twice per slot.
 */
@ApplicationScoped
public class JobControl {
    @Inject
    @ConfigProperty(name = "sample.jobs.enabled", defaultValue = "false")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "sample.jobs.skew", defaultValue = "0")
    long skewMillis;

    /**
     * @return whether this server runs the sample's jobs
     */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Waits as long as this server's timers are late ({@code sample.jobs.skew}).
     *
     * @throws InterruptedException if interrupted meanwhile
     */
    public void awaitSkew() throws InterruptedException {
        if (skewMillis > 0) {
            Thread.sleep(skewMillis);
        }
    }
}
