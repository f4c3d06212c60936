/**
 * Which optional APIs the application's class path has. Depends on nothing else in Locksmith,
 * and nothing in it names a type of an optional API.
 */
package dev.locksmith.internal.classpath;
