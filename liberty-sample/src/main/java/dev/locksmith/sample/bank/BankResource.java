package dev.locksmith.sample.bank;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/bank/{bank}}: a small bank whose transfers run under the bank's lock, fenced or not.
 *
 * <pre>
 * PUT  /api/bank/acme/accounts/alice {"balance": 100}                   -> 200 {"bank", "account", "balance"}
 * GET  /api/bank/acme                                                   -> 200 {"bank", "accounts": [...], "total"}
 * POST /api/bank/acme/transfers {"from": "alice", "to": "bob", "amount": 10}
 *                                                                       -> 201 {"fromBefore", "toBefore", "fromAfter", ...}
 * POST /api/bank/acme/transfers?fenced=false {...}                      -> the same transfer, not fenced
 * POST /api/bank/acme/transfers?teller=ejb {...}                        -> the fenced transfer through a stateless session bean
 * </pre>
 *
 * <p>A transfer whose holder was paused past its lease answers 409 {@code FENCED_WRITE_REFUSED}
 * when a later holder had checked in first (nothing was written), or 409 {@code ROLLED_BACK} when
 * Locksmith found the lock lost before the commit; 404 {@code UNKNOWN_ACCOUNT}, 409
 * {@code INSUFFICIENT_FUNDS}, 503 {@code LOCK_TIMEOUT} as their names say.
 */
@Path("/bank/{bank}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class BankResource {
    @Inject
    BankLedger ledger;

    @Inject
    FencedTeller fenced;

    @Inject
    UnfencedTeller unfenced;

    @Inject
    Instance<SessionBeanTransfers> sessionBeans;

    /**
     * The body of {@code PUT /api/bank/{bank}/accounts/{account}}.
     *
     * @param balance the account's balance, zero or more
     */
    public record Opening(long balance) {
    }

    /**
     * The body of {@code POST /api/bank/{bank}/transfers}.
     *
     * @param from   the account to debit
     * @param to     the account to credit, another one
     * @param amount how much, one or more
     */
    public record TransferRequest(String from, String to, long amount) {
    }

    @GET
    public BankStatement statement(@PathParam("bank") String bank) {
        return ledger.statement(bank);
    }

    @PUT
    @Path("/accounts/{account}")
    public AccountBalance open(@PathParam("bank") String bank, @PathParam("account") String account, Opening body) {
        if (body == null || body.balance() < 0) {
            throw new IllegalArgumentException("Send {\"balance\": n} with n >= 0");
        }
        return fenced.open(bank, account, body.balance());
    }

    @POST
    @Path("/transfers")
    public Response transfer(@PathParam("bank") String bank, @QueryParam("fenced") @DefaultValue("true") String fencing,
            @QueryParam("teller") @DefaultValue("cdi") String teller, TransferRequest body) {
        if (body == null || body.from() == null || body.to() == null || body.from().equals(body.to())
                || body.amount() < 1) {
            throw new IllegalArgumentException("Send {\"from\": account, \"to\": another account, \"amount\": n}"
                    + " with n >= 1");
        }
        if (!"true".equals(fencing) && !"false".equals(fencing)) {
            throw new IllegalArgumentException("fenced=" + fencing + " is not a choice; use fenced=true (the default)"
                    + " or fenced=false");
        }
        if (!"cdi".equals(teller) && !"ejb".equals(teller)) {
            throw new IllegalArgumentException("teller=" + teller + " is not a choice; use teller=cdi (the default)"
                    + " or teller=ejb");
        }
        TransferReceipt receipt;
        if ("ejb".equals(teller)) {
            if (!Boolean.parseBoolean(fencing) || !sessionBeans.isResolvable()) {
                throw new IllegalArgumentException("teller=ejb is the fenced transfer of a stateless session bean: it"
                        + " needs fenced=true and a server with Enterprise Beans");
            }
            receipt = sessionBeans.get().transfer(bank, body.from(), body.to(), body.amount());
        } else {
            receipt = Boolean.parseBoolean(fencing)
                    ? fenced.transfer(bank, body.from(), body.to(), body.amount())
                    : unfenced.transfer(bank, body.from(), body.to(), body.amount());
        }
        return Response.status(Response.Status.CREATED).entity(receipt).build();
    }
}
