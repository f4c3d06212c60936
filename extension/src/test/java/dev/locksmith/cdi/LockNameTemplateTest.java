package dev.locksmith.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.locksmith.LockManager;
import dev.locksmith.Locked;
import dev.locksmith.testing.RedisServerExtension;
import dev.locksmith.testing.CdiContainers;
import dev.locksmith.testing.RedisConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.Callable;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Lock names built from a {@code @Locked} template and the call's arguments.
 */
@EnableWeld
class LockNameTemplateTest {
    @RegisterExtension
    @org.junit.jupiter.api.Order(1)
    static final RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    @org.junit.jupiter.api.Order(2)
    static final RedisConfigExtension config = new RedisConfigExtension(redis);

    @WeldSetup
    WeldInitiator weld = WeldInitiator.from(CdiContainers.weld(Orders.class)).build();

    @Inject
    LockManager locks;
    @Inject
    Orders orders;

    private Callable<Boolean> holds(String name) {
        return () -> locks.getLock(name).isHeldByCurrentThread();
    }

    @Test
    void aParameterIsNamedByItsName() throws Exception {
        assertThat(orders.byName("A-1", 3, holds("order:A-1:3"))).isTrue();
    }

    @Test
    void aParameterIsNamedByItsPosition() throws Exception {
        assertThat(orders.byPosition("A-2", 7L, holds("order:7/A-2"))).isTrue();
    }

    @Test
    void nestedPropertiesAreReadThroughGetters() throws Exception {
        Invoice invoice = new Invoice(new Account("acct-9", true));

        assertThat(orders.byGetter(invoice, holds("account:acct-9:true"))).isTrue();
    }

    @Test
    void nestedPropertiesAreReadThroughRecordComponents() throws Exception {
        Order order = new Order("o-5", new Customer(42L, "Ada"));

        assertThat(orders.byRecord(order, holds("customer:42"))).isTrue();
        assertThat(orders.byPositionAndRecord(order, holds("customer:Ada"))).isTrue();
    }

    @Test
    void anEmptyTemplateNamesTheLockAfterClassAndMethod() throws Exception {
        assertThat(orders.unnamed(holds(Orders.class.getName() + "#unnamed"))).isTrue();
    }

    record Customer(long id, String name) {
    }

    record Order(String id, Customer customer) {
    }

    public static final class Account {
        private final String number;
        private final boolean frozen;

        Account(String number, boolean frozen) {
            this.number = number;
            this.frozen = frozen;
        }

        public String getNumber() {
            return number;
        }

        public boolean isFrozen() {
            return frozen;
        }
    }

    public static final class Invoice {
        private final Account account;

        Invoice(Account account) {
            this.account = account;
        }

        public Account getAccount() {
            return account;
        }
    }

    @ApplicationScoped
    static class Orders {
        @Locked("order:{id}:{quantity}")
        public <T> T byName(String id, int quantity, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("order:{1}/{0}")
        public <T> T byPosition(String sku, long orderId, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("account:{invoice.account.number}:{invoice.account.frozen}")
        public <T> T byGetter(Invoice invoice, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("customer:{order.customer.id}")
        public <T> T byRecord(Order order, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked("customer:{0.customer.name}")
        public <T> T byPositionAndRecord(Order order, Callable<T> inside) throws Exception {
            return inside.call();
        }

        @Locked
        public <T> T unnamed(Callable<T> inside) throws Exception {
            return inside.call();
        }
    }
}
