package dev.locksmith.internal.manager;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockManager;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The application's manager hands every call to the connected one: a default method of
 * {@link LockManager} it did not override would answer with the interface's fallback instead (as
 * {@code describeJob} once did, with UnsupportedOperationException, for every CDI application).
 */
class ConnectingLockManagerTest {

    @Test
    void everyMethodOfTheInterfaceIsHandedToTheConnectedManager() {
        List<String> notHandedOn = Arrays.stream(LockManager.class.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .filter(method -> !declaredBy(method))
                .map(Method::toGenericString)
                .toList();

        assertThat(notHandedOn).as("LockManager methods ConnectingLockManager does not override").isEmpty();
    }

    private static boolean declaredBy(Method method) {
        try {
            return ConnectingLockManager.class.getDeclaredMethod(method.getName(), method.getParameterTypes()) != null;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
