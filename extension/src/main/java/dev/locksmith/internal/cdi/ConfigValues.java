package dev.locksmith.internal.cdi;

import dev.locksmith.internal.classpath.OptionalApi;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * Where Locksmith's settings come from: MicroProfile Config when the application has an
 * implementation of it, otherwise the JVM's system properties (a Jakarta EE server without
 * MicroProfile).
 */
@FunctionalInterface
interface ConfigValues {

    /**
     * @param key a property name
     * @return its value, if set
     */
    Optional<String> get(String key);

    /**
     * @return MicroProfile Config of the current application, or system properties without it
     */
    static ConfigValues ofApplication() {
        if (OptionalApi.CONFIG.isPresent()) {
            try {
                return MicroProfileConfigValues.current();
            } catch (IllegalStateException e) {
                System.getLogger(ConfigValues.class.getName()).log(Level.INFO, "MicroProfile Config has no"
                        + " implementation here (" + e.getMessage() + "); Locksmith reads its settings from system"
                        + " properties");
            }
        }
        return key -> Optional.ofNullable(System.getProperty(key));
    }

    /**
     * Reads through MicroProfile Config; a class of its own so that nothing here touches the
     * MicroProfile API unless it is on the class path.
     */
    final class MicroProfileConfigValues {
        private static final Logger LOG = System.getLogger(MicroProfileConfigValues.class.getName());

        private MicroProfileConfigValues() {
        }

        static ConfigValues current() {
            org.eclipse.microprofile.config.Config config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
            LOG.log(Level.DEBUG, "Locksmith reads its settings from MicroProfile Config");
            return key -> config.getOptionalValue(key, String.class);
        }
    }
}
