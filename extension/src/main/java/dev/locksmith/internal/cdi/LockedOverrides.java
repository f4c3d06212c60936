package dev.locksmith.internal.cdi;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * Per-use overrides of {@code @Locked} attributes, in the MicroProfile Fault Tolerance style.
 * The most specific key that is set wins:
 * <ol>
 *   <li>{@code com.example.Shop/reserve/Locked/waitTime} — one method;</li>
 *   <li>{@code com.example.Shop/Locked/waitTime} — every {@code @Locked} method of a class;</li>
 *   <li>{@code Locked/waitTime} — every {@code @Locked} use of the application.</li>
 * </ol>
 * The same holds for {@code leaseTime}, {@code minHold} and {@code fenced}. An override wins over the annotation,
 * whether it gives the time as a number in its {@code unit} or as text with its own unit
 * ({@code minHoldDuration = "1.5s"}).
 */
final class LockedOverrides {
    /** The attribute {@code waitTime}. */
    static final String WAIT_TIME = "waitTime";
    /** The attribute {@code leaseTime}. */
    static final String LEASE_TIME = "leaseTime";
    /** The attribute {@code minHold}. */
    static final String MIN_HOLD = "minHold";
    /** The attribute {@code fenced}. */
    static final String FENCED = "fenced";

    private LockedOverrides() {
    }

    /**
     * @param beanClass the bean class
     * @param method    the business method
     * @param attribute {@link #WAIT_TIME}, {@link #LEASE_TIME}, {@link #MIN_HOLD} or {@link #FENCED}
     * @return the keys that override it, most specific first
     */
    static List<String> keys(Class<?> beanClass, Method method, String attribute) {
        return List.of(beanClass.getName() + "/" + method.getName() + "/Locked/" + attribute,
                beanClass.getName() + "/Locked/" + attribute,
                "Locked/" + attribute);
    }

    /**
     * @return the most specific override that is set, with the key it came from
     */
    static Optional<Override> find(ConfigValues values, Class<?> beanClass, Method method, String attribute) {
        for (String key : keys(beanClass, method, attribute)) {
            Optional<String> value = values.get(key).map(String::trim).filter(text -> !text.isEmpty());
            if (value.isPresent()) {
                return Optional.of(new Override(key, value.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * One configured override.
     *
     * @param key   the key it was read from
     * @param value its text
     */
    record Override(String key, String value) {
    }
}
