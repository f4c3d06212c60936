/**
 * A stock-reservation service on Open Liberty that keeps concurrent reservations, on any number
 * of servers sharing one database, from overselling: each reservation of a SKU runs under the
 * distributed lock {@code stock:<sku>}, taken three ways (a CDI bean, an EJB, and the
 * {@code LockManager} API) to show each of them; and a small bank ({@code bank}) whose transfers
 * are fenced writes.
 */
package dev.locksmith.sample;
