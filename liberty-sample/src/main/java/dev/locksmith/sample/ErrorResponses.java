package dev.locksmith.sample;

import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.sample.stock.OutOfStockException;
import dev.locksmith.sample.stock.UnknownSkuException;
import jakarta.ejb.EJBTransactionRolledbackException;
import jakarta.transaction.RollbackException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns every failure into {@code {"code": ..., "message": ...}} with a status a client can act
 * on. Containers wrap some exceptions (a failed commit arrives as a {@code RollbackException} in
 * a {@code TransactionalException} or an {@code EJBTransactionRolledbackException}), so the whole
 * cause chain is searched; the first rule that matches any cause wins.
 *
 * <p>Locksmith's own exceptions reach {@link LockTimeoutResponses} and {@link LockLostResponses}
 * as themselves, from CDI beans and session beans alike; this mapper gets the wrapped cases.
 * Every answer names its mapper in the header {@value #MAPPED_BY}.
 */
@Provider
public class ErrorResponses implements ExceptionMapper<Exception> {
    /** The response header that names the mapper which answered. */
    public static final String MAPPED_BY = "X-Mapped-By";
    private static final Logger LOG = Logger.getLogger(ErrorResponses.class.getName());

    private static final List<Rule> RULES = List.of(
            // Before the generic rollback rule: a lost lock is the cause worth naming.
            new Rule(LockLostException.class, Status.CONFLICT, "ROLLED_BACK", (lost, root) ->
                    "Nothing was reserved: the transaction was rolled back because the lock was lost before"
                            + " commit: " + lost.getMessage()),
            new Rule(OutOfStockException.class, Status.CONFLICT, "OUT_OF_STOCK", Rule::itsMessage),
            new Rule(UnknownSkuException.class, Status.NOT_FOUND, "UNKNOWN_SKU", Rule::itsMessage),
            new Rule(LockTimeoutException.class, Status.SERVICE_UNAVAILABLE, "LOCK_TIMEOUT", Rule::itsMessage),
            new Rule(RollbackException.class, Status.CONFLICT, "ROLLED_BACK", Rule::rolledBack),
            new Rule(EJBTransactionRolledbackException.class, Status.CONFLICT, "ROLLED_BACK", Rule::rolledBack),
            new Rule(LockException.class, Status.SERVICE_UNAVAILABLE, "LOCK_UNAVAILABLE", Rule::itsMessage),
            new Rule(IllegalArgumentException.class, Status.BAD_REQUEST, "BAD_REQUEST", Rule::itsMessage));

    /**
     * The body of every error answer.
     *
     * <table>
     * <caption>codes</caption>
     * <tr><td>409 ROLLED_BACK</td><td>the commit failed, for example because the lock was lost before it; nothing was written</td></tr>
     * <tr><td>409 OUT_OF_STOCK</td><td>fewer units left than asked for</td></tr>
     * <tr><td>404 UNKNOWN_SKU</td><td>no stock row for that SKU</td></tr>
     * <tr><td>503 LOCK_TIMEOUT</td><td>the lock was not free within the wait time; retry</td></tr>
     * <tr><td>503 LOCK_UNAVAILABLE</td><td>Redis could not be reached</td></tr>
     * <tr><td>400 BAD_REQUEST</td><td>a bad parameter or body</td></tr>
     * <tr><td>500 INTERNAL</td><td>anything else; the server log has the stack trace</td></tr>
     * </table>
     *
     * @param code    a stable, machine-readable name
     * @param message what happened, for a person
     */
    public record Error(String code, String message) {
    }

    @Override
    public Response toResponse(Exception exception) {
        if (exception instanceof WebApplicationException web) {
            return web.getResponse();
        }
        return respond(exception, ErrorResponses.class);
    }

    /**
     * @param exception what a call threw
     * @param mapper    the mapper that got it, named in the {@value #MAPPED_BY} header
     * @return the answer of the first rule that matches a cause
     */
    static Response respond(Throwable exception, Class<?> mapper) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = exception; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        Throwable root = chain.get(chain.size() - 1);
        for (Rule rule : RULES) {
            for (Throwable cause : chain) {
                if (rule.type().isInstance(cause)) {
                    if (rule.status() == Status.INTERNAL_SERVER_ERROR || "ROLLED_BACK".equals(rule.code())) {
                        LOG.log(Level.WARNING, rule.code(), exception);
                    }
                    Response.ResponseBuilder answer = Response.status(rule.status()).type(MediaType.APPLICATION_JSON)
                            .header(MAPPED_BY, mapper.getSimpleName())
                            .entity(new Error(rule.code(), rule.message().apply(cause, root)));
                    if (rule.status() == Status.SERVICE_UNAVAILABLE) {
                        answer.header("Retry-After", "1");
                    }
                    return answer.build();
                }
            }
        }
        LOG.log(Level.SEVERE, "Unexpected failure", exception);
        return Response.status(Status.INTERNAL_SERVER_ERROR).type(MediaType.APPLICATION_JSON)
                .header(MAPPED_BY, mapper.getSimpleName())
                .entity(new Error("INTERNAL", describe(root))).build();
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private record Rule(Class<? extends Throwable> type, Status status, String code,
            BiFunction<Throwable, Throwable, String> message) {

        static String itsMessage(Throwable match, Throwable root) {
            return match.getMessage();
        }

        static String rolledBack(Throwable match, Throwable root) {
            return "Nothing was reserved: the transaction was rolled back at commit (" + describe(root) + ")";
        }
    }
}
