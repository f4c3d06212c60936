package dev.locksmith.internal.lock;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * How this process describes itself to operators in Redis: {@code pid 4711 on shop-1, application
 * shop}. The manager's description for {@code describe}'s holders and a job's last run both say it.
 */
public final class ProcessDescription {
    private ProcessDescription() {
    }

    /**
     * @param applicationName the application's name, or null or blank when unknown
     * @return this process's description
     */
    public static String of(String applicationName) {
        return "pid " + ProcessHandle.current().pid() + " on " + hostName()
                + (applicationName == null || applicationName.isBlank() ? "" : ", application " + applicationName);
    }

    private static String hostName() {
        String fromEnvironment = System.getenv("HOSTNAME");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "an unknown host";
        }
    }
}
