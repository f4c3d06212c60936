package dev.locksmith.internal.classpath;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.naming.NoInitialContextException;

/**
 * The one place that asks the container's naming service (JNDI) for something. Without a naming
 * service (Java SE) it answers null at once, and goes on doing so: that does not change while
 * the application runs.
 */
public final class Jndi {
    private static volatile boolean noNaming;

    private Jndi() {
    }

    /**
     * @param name a JNDI name, such as {@code java:app/AppName}
     * @return what is bound there, or null when nothing is (or there is no naming service)
     */
    public static Object lookup(String name) {
        if (noNaming) {
            return null;
        }
        try {
            InitialContext context = new InitialContext();
            try {
                return context.lookup(name);
            } finally {
                context.close();
            }
        } catch (NoInitialContextException e) {
            noNaming = true;
            return null;
        } catch (NamingException | RuntimeException e) {
            return null;
        }
    }
}
