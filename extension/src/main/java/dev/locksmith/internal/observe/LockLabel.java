package dev.locksmith.internal.observe;

/**
 * Which lock an observation is about.
 *
 * @param name     the lock's resolved name, such as {@code stock:42} (for Flight Recorder, never a metric attribute
 *                 unless the user asked for resolved names)
 * @param kind     {@code reentrant}, {@code fair}, {@code read}, {@code write} or {@code multi}
 * @param template what metrics and spans call it: the {@code @Locked} template ({@code stock:{sku}}), a
 *                 configured name pattern, {@code other}, or the resolved name when the user opted in
 */
public record LockLabel(String name, String kind, String template) {
}
