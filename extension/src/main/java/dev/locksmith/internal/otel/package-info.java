/**
 * Metrics and spans through the OpenTelemetry API, as MicroProfile Telemetry servers provide it.
 * Loaded only when that API is on the class path and an {@code OpenTelemetry} was given.
 */
package dev.locksmith.internal.otel;
