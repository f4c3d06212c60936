/**
 * The values Redis holds or sends, one Java type each with one reader and, where Java writes
 * it, one writer, so that the format of a value is read in one place: an offer message
 * ({@code OfferMessage}) and a job's run record ({@code RunRecordFormat}). Their Lua writers are
 * named in each type's Javadoc.
 */
package dev.locksmith.internal.wire;
