package dev.locksmith.sample.stock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The session-bean paths on a server with EJB: {@link ReservationDesk} and {@link SingletonReservations}.
 */
@ApplicationScoped
public class SessionBeanReservations implements SessionBeanPaths {
    @Inject
    ReservationDesk ejb;

    @Inject
    SingletonReservations singleton;

    @Override
    public ReservationReceipt reserve(Via via, String sku, int quantity, boolean waits) {
        return switch (via) {
            case EJB -> waits ? ejb.reserve(sku, quantity) : ejb.tryReserve(sku, quantity);
            case SINGLETON -> waits ? singleton.reserve(sku, quantity) : singleton.tryReserve(sku, quantity);
            default -> throw new IllegalArgumentException("via=" + via + " is not a session-bean path");
        };
    }
}
