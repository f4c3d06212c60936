package dev.locksmith.sample.stock;

/**
 * The reservation paths through session beans ({@link Via#EJB}, {@link Via#SINGLETON}), where
 * the runtime has EJB: {@link SessionBeanReservations} on Jakarta EE servers, nothing on Quarkus.
 */
public interface SessionBeanPaths {

    /**
     * @param via      {@link Via#EJB} or {@link Via#SINGLETON}
     * @param sku      the SKU
     * @param quantity how many units
     * @param waits    whether to wait for the lock as configured, or give up at once
     * @return what was reserved
     */
    ReservationReceipt reserve(Via via, String sku, int quantity, boolean waits);
}
