/**
 * A manager's validated settings, the rules that validate them (shared by the builder and
 * MicroProfile Config), and the duration and time-limit forms they accept.
 */
package dev.locksmith.internal.config;
