package dev.locksmith.sample;

import dev.locksmith.LockTimeoutException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * {@code 503 LOCK_TIMEOUT} with {@code Retry-After}: the lock was not free within the wait time.
 * A mapper for the exception type itself, as an application writes one: it is chosen only when
 * the exception reaches JAX-RS unwrapped, which Locksmith ensures for session beans too.
 */
@Provider
public class LockTimeoutResponses implements ExceptionMapper<LockTimeoutException> {
    @Override
    public Response toResponse(LockTimeoutException exception) {
        return ErrorResponses.respond(exception, LockTimeoutResponses.class);
    }
}
