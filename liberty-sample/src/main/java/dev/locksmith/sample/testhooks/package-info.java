/**
 * Hooks that let the integration tests stop a request at a chosen point (inside the lock, after
 * the write, during the commit), see which points it reached, and make it fail there. Off unless
 * {@code sample.test-hooks.enabled=true}; when off, the headers are ignored and
 * {@code /api/test-hooks} answers 404.
 *
 * <pre>
 * X-Test-Id: a1              name this request's trace
 * X-Test-Pause: committing   stop at that point until POST /api/test-hooks/a1/resume
 * X-Test-Fail: written       throw SimulatedFailure at that point (the transaction rolls back)
 * GET /api/test-hooks/a1/started?waitMs=2000  -> {"reached": true|false}
 * </pre>
 */
package dev.locksmith.sample.testhooks;
