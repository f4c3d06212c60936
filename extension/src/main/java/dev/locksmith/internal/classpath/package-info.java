/**
 * What the runtime offers the library, asked in one place each: which optional APIs the
 * application's class path has ({@link dev.locksmith.internal.classpath.OptionalApi}), and what
 * the container's naming service binds ({@link dev.locksmith.internal.classpath.Jndi}). Depends
 * on nothing else in Locksmith, and nothing in it names a type of an optional API.
 */
package dev.locksmith.internal.classpath;
