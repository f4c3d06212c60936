package dev.locksmith.sample.stock;

import jakarta.enterprise.context.RequestScoped;
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
 * </pre>
 *
 * <p>{@code via} chooses the code path: {@code cdi} (default), {@code ejb} or {@code manager}.
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

    @Inject
    ReservationDesk ejb;

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
            ReservationRequest body) {
        if (body == null || body.quantity() < 1) {
            throw new IllegalArgumentException("Send {\"quantity\": n} with n >= 1");
        }
        Via path = lockingEnabled ? Via.fromString(via) : Via.UNLOCKED;
        ReservationReceipt receipt = switch (path) {
            case CDI -> cdi.reserve(sku, body.quantity());
            case EJB -> ejb.reserve(sku, body.quantity());
            case MANAGER -> manager.reserve(sku, body.quantity());
            case UNLOCKED -> unlocked.reserve(sku, body.quantity());
        };
        return Response.status(Response.Status.CREATED).entity(receipt).build();
    }
}
