package dev.locksmith.internal.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.locksmith.Locked;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The interceptor's lookup of a method's {@code @Locked}: Jakarta EE 10 gives interceptors no
 * bindings, so the lookup reads the method, then the class, and resolves each method once.
 */
class LockedMethodsTest {

    private static LockedOperation resolve(Class<?> beanClass, Method method) {
        return LockedOperation.resolve(beanClass, method, LockedMethods.bindingOf(beanClass, method),
                key -> Optional.empty(), Duration.ofSeconds(30));
    }

    @Test
    void aMethodSeenAtStartupIsFoundThroughTheSubclassTheContainerGenerated() throws Exception {
        Method pay = Payments.class.getMethod("pay", String.class);
        LockedOperation atStartup = resolve(Payments.class, pay);
        LockedMethods methods = new LockedMethods((type, method) -> {
            throw new AssertionError("resolved late");
        });
        methods.add(Payments.class, pay, atStartup);

        LockedOperation found = methods.of(Payments$$Generated.class, pay);

        assertThat(found).isSameAs(atStartup);
    }

    @Test
    void aMethodNotSeenAtStartupIsResolvedOnceByReflectionFromTheMethodThenTheClass() throws Exception {
        AtomicInteger resolutions = new AtomicInteger();
        LockedMethods methods = new LockedMethods((type, method) -> {
            resolutions.incrementAndGet();
            return resolve(type, method);
        });
        Method pay = Payments.class.getMethod("pay", String.class);
        Method refund = Payments.class.getMethod("refund", String.class);

        // The interceptor passes the bean class CDI gives it (@Intercepted Bean), never a proxy's.
        LockedOperation first = methods.of(Payments.class, pay);
        LockedOperation again = methods.of(Payments.class, pay);
        LockedOperation byClass = methods.of(Payments.class, refund);

        assertThat(again).isSameAs(first);
        assertThat(resolutions).hasValue(2);
        assertThat(first.lockName(new Object[] {"p-1"})).isEqualTo("payment:p-1");
        assertThat(byClass.lockName(new Object[] {"p-1"})).isEqualTo(Payments.class.getName() + "#refund");
    }

    @Test
    void aMethodWithoutAnyBindingIsAnError() throws Exception {
        Method toString = Unlocked.class.getMethod("describe");

        assertThatThrownBy(() -> LockedMethods.bindingOf(Unlocked.class, toString))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("carries no @Locked");
    }

    @Locked
    static class Payments {
        @Locked("payment:{id}")
        public void pay(String id) {
        }

        public void refund(String id) {
        }
    }

    /** What a container's generated subclass looks like. */
    static class Payments$$Generated extends Payments {
    }

    static class Unlocked {
        public String describe() {
            return "unlocked";
        }
    }
}
