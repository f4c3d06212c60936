package dev.locksmith.sample.quarkus;

import dev.locksmith.sample.stock.ReservationReceipt;
import dev.locksmith.sample.stock.StockResource.ReservationRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/transformed/{sku}/reservations {"quantity": 1}}: a reservation through
 * {@link TransformedReservations}, whose {@code @Locked} an annotation transformation added.
 * Answers as {@code /api/stock/{sku}/reservations} does.
 */
@Path("/transformed/{sku}/reservations")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TransformedResource {
    @Inject
    TransformedReservations reservations;

    @POST
    public Response reserve(@PathParam("sku") String sku, ReservationRequest body) {
        if (body == null || body.quantity() < 1) {
            throw new IllegalArgumentException("Send {\"quantity\": n} with n >= 1");
        }
        ReservationReceipt receipt = reservations.reserve(sku, body.quantity());
        return Response.status(Response.Status.CREATED).entity(receipt).build();
    }
}
