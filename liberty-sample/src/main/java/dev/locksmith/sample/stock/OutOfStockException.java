package dev.locksmith.sample.stock;

import jakarta.ejb.ApplicationException;

/**
 * Fewer units are left than a reservation asked for. Rolls the transaction back; answered as
 * HTTP 409 {@code OUT_OF_STOCK}.
 */
@ApplicationException(rollback = true)
public class OutOfStockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfStockException(String sku, int requested, int available) {
        super("Only " + available + " unit(s) of '" + sku + "' left; " + requested + " requested");
    }
}
