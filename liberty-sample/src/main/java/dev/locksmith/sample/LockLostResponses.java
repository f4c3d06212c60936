package dev.locksmith.sample;

import dev.locksmith.LockLostException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * {@code 409 ROLLED_BACK}: a lock was lost while it guarded the call; {@code 409 FENCED_WRITE_REFUSED}
 * when the loss is a {@code FencedWriteRefusedException}, the fence table's refusal. A mapper for
 * the exception type itself; when the loss is found at commit, the container reports a rollback
 * instead, and {@link ErrorResponses} finds this exception in its cause chain.
 */
@Provider
public class LockLostResponses implements ExceptionMapper<LockLostException> {
    @Override
    public Response toResponse(LockLostException exception) {
        return ErrorResponses.respond(exception, LockLostResponses.class);
    }
}
