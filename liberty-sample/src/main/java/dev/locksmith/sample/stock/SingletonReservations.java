package dev.locksmith.sample.stock;

import dev.locksmith.Locked;
import jakarta.ejb.Lock;
import jakarta.ejb.LockType;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * Reservations through a {@code @Singleton} session bean. Its container lock is {@code READ}, so
 * calls run side by side in this server and {@code @Locked} alone serializes them across servers.
 */
@Singleton
@Lock(LockType.READ)
public class SingletonReservations {
    @Inject
    StockLedger ledger;

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException if the lock was not free within {@code locksmith.wait-time}
     */
    @Locked("stock:{sku}")
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public ReservationReceipt reserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.SINGLETON);
    }

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException at once if another caller holds the lock
     */
    @Locked(value = "stock:{sku}", waitTime = 0)
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public ReservationReceipt tryReserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.SINGLETON);
    }
}
