package dev.locksmith.sample;

import dev.locksmith.FencedWriteRefusedException;
import dev.locksmith.LockException;
import dev.locksmith.LockLostException;
import dev.locksmith.LockTimeoutException;
import dev.locksmith.sample.bank.InsufficientFundsException;
import dev.locksmith.sample.bank.UnknownAccountException;
import dev.locksmith.sample.stock.OutOfStockException;
import dev.locksmith.sample.stock.UnknownSkuException;
import jakarta.ejb.EJBTransactionRolledbackException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionalException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;
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
    /** Answers an operator should see in the log, with the stack trace: the lock's failures. */
    private static final Set<String> LOGGED = Set.of("ROLLED_BACK", "LOCK_LOST", "FENCED_WRITE_REFUSED");

    private static final List<Rule> RULES = List.of(
            // Before the lost lock it is a kind of: the database itself refused this holder.
            new Rule(FencedWriteRefusedException.class, Status.CONFLICT, "FENCED_WRITE_REFUSED", (refused, root) ->
                    "Nothing was written: a later holder of the lock had checked in with the database first, so"
                            + " the transaction was rolled back: " + refused.getMessage()),
            // Before the generic rollback rules: a lost lock is the cause worth naming. Found before the
            // commit, it rolled the transaction back; found only when the lock was released after the
            // work, the transaction (if any) had already ended.
            new Rule(LockLostException.class, Status.CONFLICT, "ROLLED_BACK", ErrorResponses::rolledBack, (lost, root) ->
                    "Nothing was written: the transaction was rolled back because the lock was lost before"
                            + " commit: " + lost.getMessage()),
            new Rule(LockLostException.class, Status.CONFLICT, "LOCK_LOST", chain -> true, (lost, root) ->
                    "The lock was lost while this request held it, and this was found only after its work:"
                            + " what it wrote may have been committed without the lock's protection, while another"
                            + " holder ran. Look at the data before retrying: " + lost.getMessage()),
            new Rule(OutOfStockException.class, Status.CONFLICT, "OUT_OF_STOCK", Rule::itsMessage),
            new Rule(UnknownSkuException.class, Status.NOT_FOUND, "UNKNOWN_SKU", Rule::itsMessage),
            new Rule(InsufficientFundsException.class, Status.CONFLICT, "INSUFFICIENT_FUNDS", Rule::itsMessage),
            new Rule(UnknownAccountException.class, Status.NOT_FOUND, "UNKNOWN_ACCOUNT", Rule::itsMessage),
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
     * <tr><td>409 FENCED_WRITE_REFUSED</td><td>the lock's lease ran out and a later holder checked in with the
     * fence table first; nothing was written</td></tr>
     * <tr><td>409 ROLLED_BACK</td><td>the commit failed, for example because the lock was lost before it; nothing was written</td></tr>
     * <tr><td>409 LOCK_LOST</td><td>the lock was found lost only when it was released, after the work had committed
     * (a pause after Locksmith's check before commit): what was written may not have been protected</td></tr>
     * <tr><td>409 OUT_OF_STOCK</td><td>fewer units left than asked for</td></tr>
     * <tr><td>404 UNKNOWN_SKU</td><td>no stock row for that SKU</td></tr>
     * <tr><td>409 INSUFFICIENT_FUNDS</td><td>a transfer asked for more than its account holds</td></tr>
     * <tr><td>404 UNKNOWN_ACCOUNT</td><td>the bank has no account of that name</td></tr>
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
                if (rule.type().isInstance(cause) && rule.when().test(chain)) {
                    if (LOGGED.contains(rule.code())) {
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

    /**
     * @return whether the chain says a transaction was rolled back
     */
    private static boolean rolledBack(List<Throwable> chain) {
        return chain.stream().anyMatch(t -> t instanceof RollbackException || t instanceof TransactionalException
                || t instanceof EJBTransactionRolledbackException);
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /**
     * @param when    what else the whole cause chain must show for the rule to apply
     * @param message the answer's message, from the matching cause and the root cause
     */
    private record Rule(Class<? extends Throwable> type, Status status, String code, Predicate<List<Throwable>> when,
            BiFunction<Throwable, Throwable, String> message) {

        Rule(Class<? extends Throwable> type, Status status, String code, BiFunction<Throwable, Throwable, String> message) {
            this(type, status, code, chain -> true, message);
        }

        static String itsMessage(Throwable match, Throwable root) {
            return match.getMessage();
        }

        static String rolledBack(Throwable match, Throwable root) {
            return "Nothing was written: the transaction was rolled back at commit (" + describe(root) + ")";
        }
    }
}
