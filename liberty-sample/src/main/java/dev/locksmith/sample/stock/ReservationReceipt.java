package dev.locksmith.sample.stock;

/**
 * The answer to a successful reservation.
 *
 * @param id              the reservation's id
 * @param sku             what was reserved
 * @param quantity        how many units
 * @param availableBefore the level this reservation read; under the lock, the level the previous
 *                        reservation left
 * @param availableAfter  the level it wrote
 * @param instance        which server did it ({@code sample.instance})
 * @param via             which code path did it
 */
public record ReservationReceipt(String id, String sku, int quantity, int availableBefore, int availableAfter,
        String instance, String via) {
}
