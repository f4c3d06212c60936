package dev.locksmith.sample;

import jakarta.transaction.TransactionalException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A failed {@code @Transactional} commit, such as one that found its lock lost: {@code 409
 * ROLLED_BACK}. Without a mapper for this type, Jersey (Payara) picks its own
 * {@code TransactionalExceptionMapper}, which only unwraps a {@code WebApplicationException} and
 * otherwise fails with an HTML 500 page.
 */
@Provider
public class TransactionalExceptionResponses implements ExceptionMapper<TransactionalException> {
    @Override
    public Response toResponse(TransactionalException exception) {
        return ErrorResponses.respond(exception, TransactionalExceptionResponses.class);
    }
}
