package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.LettuceNettyMatch;
import dev.locksmith.internal.classpath.OptionalApi;
import dev.locksmith.internal.config.Durations;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The check both registrations of Locksmith make before the application runs: that its Lettuce
 * runs on the class path's Netty, the settings, and every {@code @Locked} use against its method
 * and the configuration's overrides. The portable
 * extension makes it when the deployment is validated; the build compatible extension when the
 * application is built (Quarkus) or deployed (Weld), and again when it starts, with the
 * configuration it runs with. Each reports the same messages its own way.
 *
 * @param settings the checked settings, or null when they are bad
 * @param fencing  the checked settings of fenced writes, or null when they are bad
 * @param fenced   the uses with {@code fenced = true}, named as in messages; empty when there are none
 * @param methods  every use resolved, and the resolver of the ones discovery did not see
 * @param problems one message per bad setting or use, each naming the value and the fix
 */
record DeploymentCheck(LocksmithSettings settings, FencingSettings fencing, List<String> fenced, LockedMethods methods,
                       List<Problem> problems) {

    /**
     * @param uses   every {@code @Locked} use discovery found
     * @param values the application's configuration
     * @return what was found good and bad
     */
    static DeploymentCheck of(Collection<LockedUse> uses, ConfigValues values) {
        List<Problem> problems = new ArrayList<>();
        LettuceNettyMatch.problem().ifPresent(problem -> problems.add(new Problem("Locksmith: " + problem,
                new IllegalStateException(problem))));
        LocksmithSettings settings = null;
        try {
            settings = LocksmithSettings.read(values);
        } catch (IllegalArgumentException e) {
            problems.add(new Problem("Locksmith configuration: " + e.getMessage(), e));
        }
        FencingSettings fencing = null;
        try {
            fencing = FencingSettings.read(values);
        } catch (IllegalArgumentException e) {
            problems.add(new Problem("Locksmith configuration: " + e.getMessage(), e));
        }
        List<String> fenced = new ArrayList<>();
        Duration defaultWait = settings != null ? settings.waitTime() : Durations.parse(ConfigKey.WAIT_TIME.defaultValue());
        LockedMethods methods = new LockedMethods((beanClass, method) -> LockedOperation.resolve(beanClass, method,
                LockedMethods.bindingOf(beanClass, method), values, defaultWait));
        for (LockedUse use : uses) {
            try {
                LockedOperation operation = LockedOperation.resolve(use.beanClass(), use.method(), use.locked(), values,
                        defaultWait);
                methods.add(use.beanClass(), use.method(), operation);
                if (operation.fenced()) {
                    fenced.add(operation.where());
                }
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(e.getMessage(), e));
            }
        }
        if (!fenced.isEmpty() && !OptionalApi.JTA.isPresent()) {
            String fencedUses = String.join("; ", fenced);
            problems.add(new Problem(fencedUses + ": fenced = true needs Jakarta Transactions, which this application does"
                    + " not have: the fencing token is checked in the caller's JTA transaction. Run it on a server with"
                    + " Jakarta Transactions, or remove fenced = true and check tokens yourself with dev.locksmith.Fence"
                    + " on a JDBC connection", new IllegalArgumentException(fencedUses)));
        }
        return new DeploymentCheck(settings, fencing, List.copyOf(fenced), methods, List.copyOf(problems));
    }

    /**
     * @param lockedMethods how many {@code @Locked} methods were checked
     * @param settings      the checked settings
     * @return the one line that tells operators what Locksmith found and which parts of it run
     */
    static String startupLine(int lockedMethods, LocksmithSettings settings) {
        return "Locksmith: " + lockedMethods + " @Locked method(s) checked; Redis at " + settings.redactedUri() + " ("
                + settings.mode() + "), connected at startup" + (settings.failFast()
                ? " or the deployment fails (" + ConfigKey.REDIS_FAIL_FAST.key() + "=true); "
                : ", or in the background while it cannot be reached; ") + OptionalFeatures.describe();
    }

    /**
     * Fails a startup as the portable extension fails a deployment, where no container collects
     * the problems: a CDI Lite container's run-time check.
     *
     * @throws DeploymentException with every problem's message, one per line, if there is any
     */
    void failOnProblems() {
        if (problems.size() == 1) {
            throw problems.get(0).exception();
        }
        if (problems.size() > 1) {
            DeploymentException all = new DeploymentException(problems.stream().map(Problem::message)
                    .collect(Collectors.joining("\n")));
            problems.forEach(problem -> all.addSuppressed(problem.exception()));
            throw all;
        }
    }

    /**
     * One bad setting or use.
     *
     * @param message what is wrong, where, and the fix
     * @param cause   the exception that said so
     */
    record Problem(String message, RuntimeException cause) {

        /**
         * @return the problem as the container reports it
         */
        DeploymentException exception() {
            return new DeploymentException(message, cause);
        }
    }
}
