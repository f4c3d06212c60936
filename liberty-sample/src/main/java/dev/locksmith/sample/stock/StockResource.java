package dev.locksmith.sample.stock;

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
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code /api/stock/{sku}}: read and set a SKU's level, and reserve units of it.
 *
 * <pre>
 * PUT  /api/stock/espresso {"available": 10}                  -> 200 {"sku", "available", "reserved"}
 * GET  /api/stock/espresso                                    -> 200 {"sku", "available", "reserved"}
 * POST /api/stock/espresso/reservations?via=cdi {"quantity": 1} -> 201 {"id", "availableBefore", ...}
 * POST /api/stock/espresso/reservations?wait=none {"quantity": 1} -> 503 LOCK_TIMEOUT at once if the lock is taken
 * </pre>
 *
 * <p>{@code via} chooses the code path: {@code cdi} (default), {@code ejb}, {@code singleton} (where the
 * runtime has Enterprise Beans) or {@code manager}; {@code wait=none} makes it give up at once instead of waiting for the lock.
 * With {@code sample.locking.enabled=false} every reservation takes the unlocked path instead.
 */
@Path("/stock/{sku}")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class StockResource {
    @Inject
    StockLedger ledger;

    @Inject
    LockedReservations cdi;

    /** The EJB paths; unsatisfied on a runtime without EJB, such as Quarkus. */
    @Inject
    Instance<SessionBeanPaths> sessionBeans;

    @Inject
    ManagedReservations manager;

    @Inject
    UnlockedReservations unlocked;

    @Inject
    @ConfigProperty(name = "sample.locking.enabled", defaultValue = "true")
    boolean lockingEnabled;

    /**
     * The body of {@code PUT /api/stock/{sku}}.
     *
     * @param available the new level, zero or more
     */
    public record Restock(int available) {
    }

    /**
     * The body of {@code POST /api/stock/{sku}/reservations}.
     *
     * @param quantity how many units, one or more
     */
    public record ReservationRequest(int quantity) {
    }

    @GET
    public StockLevel level(@PathParam("sku") String sku) {
        return ledger.find(sku).orElseThrow(() -> new UnknownSkuException(sku));
    }

    @PUT
    public StockLevel restock(@PathParam("sku") String sku, Restock body) {
        if (body == null || body.available() < 0) {
            throw new IllegalArgumentException("Send {\"available\": n} with n >= 0");
        }
        return ledger.restock(sku, body.available());
    }

    @POST
    @Path("/reservations")
    public Response reserve(@PathParam("sku") String sku, @QueryParam("via") @DefaultValue("cdi") String via,
            @QueryParam("wait") @DefaultValue("configured") String wait, ReservationRequest body) {
        if (body == null || body.quantity() < 1) {
            throw new IllegalArgumentException("Send {\"quantity\": n} with n >= 1");
        }
        if (!"configured".equals(wait) && !"none".equals(wait)) {
            throw new IllegalArgumentException("wait=" + wait + " is not a choice; use wait=none to give up at once"
                    + " when the lock is taken, or leave it out to wait as configured");
        }
        Via path = lockingEnabled ? Via.fromString(via) : Via.UNLOCKED;
        int quantity = body.quantity();
        boolean waits = "configured".equals(wait);
        ReservationReceipt receipt = switch (path) {
            case CDI -> waits ? cdi.reserve(sku, quantity) : cdi.tryReserve(sku, quantity);
            case EJB, SINGLETON -> sessionBeans(path).reserve(path, sku, quantity, waits);
            case MANAGER -> waits ? manager.reserve(sku, quantity) : manager.tryReserve(sku, quantity);
            case UNLOCKED -> unlocked.reserve(sku, quantity);
        };
        return Response.status(Response.Status.CREATED).entity(receipt).build();
    }

    private SessionBeanPaths sessionBeans(Via via) {
        if (!sessionBeans.isResolvable()) {
            throw new IllegalArgumentException("via=" + via + " needs Enterprise Beans, which this runtime lacks;"
                    + " use via=cdi or via=manager");
        }
        return sessionBeans.get();
    }
}
