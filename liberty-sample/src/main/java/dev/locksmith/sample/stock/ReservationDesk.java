package dev.locksmith.sample.stock;

import dev.locksmith.Locked;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

/**
 * Reservations through a stateless session bean: the container starts and commits the
 * transaction, and {@code @Locked} holds {@code stock:<sku>} until that commit is done.
 */
@Stateless
public class ReservationDesk {
    @Inject
    StockLedger ledger;

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException if the lock was not free within {@code locksmith.wait-time}
     */
    @Locked("stock:{sku}")
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public ReservationReceipt reserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.EJB);
    }

    /**
     * @return what was reserved
     * @throws dev.locksmith.LockTimeoutException at once if another caller holds the lock
     */
    @Locked(value = "stock:{sku}", waitTime = 0)
    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public ReservationReceipt tryReserve(String sku, int quantity) {
        return ledger.reserve(sku, quantity, Via.EJB);
    }
}
