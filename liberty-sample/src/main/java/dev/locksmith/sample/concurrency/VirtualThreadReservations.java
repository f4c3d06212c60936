package dev.locksmith.sample.concurrency;

import dev.locksmith.sample.stock.LockedReservations;
import dev.locksmith.sample.stock.ManagedReservations;
import dev.locksmith.sample.stock.ReservationReceipt;
import dev.locksmith.sample.stock.StockResource.ReservationRequest;
import dev.locksmith.sample.stock.Via;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.Optional;

/**
 * {@code POST /api/virtual-threads/stock/{sku}/reservations?via=cdi|manager}: a reservation run on
 * a virtual thread of a managed executor ({@code @ManagedExecutorDefinition(virtual = true)}, Jakarta
 * Concurrency 3.1), through the same locked paths as {@code /api/stock/{sku}/reservations}: the
 * {@code @Locked} CDI bean or {@code LockManager.callWithLock}, on {@link VirtualThreadExecutor}. The answer is the receipt, with
 * {@code virtualThread} saying whether the thread that held the lock was virtual.
 *
 * <pre>
 * POST /api/virtual-threads/stock/espresso/reservations?via=cdi {"quantity": 1}
 *   -> 201 {"id", "availableBefore", ..., "virtualThread": true}
 * </pre>
 *
 * <p>Where the server does not run that executor's tasks on virtual threads (no Concurrency 3.1, or
 * its API without the implementation), this path answers 501 instead of running on platform threads
 * unnoticed.
 */
@Path("/virtual-threads/stock/{sku}/reservations")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class VirtualThreadReservations {
    @Inject
    VirtualThreadExecutor virtualThreads;

    @Inject
    LockedReservations cdi;

    @Inject
    ManagedReservations manager;

    @POST
    public Response reserve(@PathParam("sku") String sku, @QueryParam("via") @DefaultValue("cdi") String via,
            ReservationRequest body) throws InterruptedException {
        if (body == null || body.quantity() < 1) {
            throw new IllegalArgumentException("Send {\"quantity\": n} with n >= 1");
        }
        Via path = Via.fromString(via);
        if (path != Via.CDI && path != Via.MANAGER) {
            throw new IllegalArgumentException("via=" + via + " does not run on the virtual-thread executor;"
                    + " use via=cdi or via=manager");
        }
        Optional<ExecutorService> executor = virtualThreads.get();
        if (executor.isEmpty()) {
            return Response.status(Response.Status.NOT_IMPLEMENTED).entity(Map.of("code", "NO_VIRTUAL_THREADS",
                    "message", virtualThreads.whyNone() + "; reserve through /api/stock/" + sku + "/reservations"))
                    .build();
        }
        int quantity = body.quantity();
        Callable<Map<String, Object>> reservation = () -> {
            ReservationReceipt receipt = path == Via.CDI ? cdi.reserve(sku, quantity) : manager.reserve(sku, quantity);
            return answer(receipt, ThreadKind.isVirtual(Thread.currentThread()));
        };
        try {
            return Response.status(Response.Status.CREATED).entity(executor.get().submit(reservation).get()).build();
        } catch (ExecutionException e) {
            // The mappers answer for the reservation's own failures (a timeout, out of stock) as on the other paths.
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException("The reservation of " + sku + " on a virtual thread failed", e.getCause());
        }
    }

    private static Map<String, Object> answer(ReservationReceipt receipt, boolean virtual) {
        return Map.of("id", receipt.id(), "sku", receipt.sku(), "quantity", receipt.quantity(),
                "availableBefore", receipt.availableBefore(), "availableAfter", receipt.availableAfter(),
                "instance", receipt.instance(), "via", receipt.via(), "virtualThread", virtual);
    }
}
