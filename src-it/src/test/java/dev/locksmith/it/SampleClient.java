package dev.locksmith.it;

import dev.locksmith.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The sample's REST API on one server, as a test calls it.
 */
final class SampleClient {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);

    private final SampleServer server;

    SampleClient(SampleServer server) {
        this.server = server;
    }

    String name() {
        return server.name();
    }

    /**
     * Waits until the sample answers {@code /api/info}: some runtimes report themselves ready a
     * moment before their HTTP listener accepts connections.
     *
     * @throws IllegalStateException with the server's console if it does not answer within {@code timeout}
     */
    void awaitAnswering(Duration timeout) {
        Await.until(server + " answers /api/info", timeout, () -> info().status() == 200, server::describe);
    }

    Reply info() {
        return send(request("/api/info").GET());
    }

    /**
     * @return {@code /health/ready}, where the server offers it (see {@link SampleServer#healthUri()})
     */
    Reply readiness() {
        return send(HttpRequest.newBuilder(URI.create(server.healthUri() + server.readinessPath()))
                .timeout(REQUEST_TIMEOUT).GET());
    }

    Reply level(String sku) {
        return send(request("/api/stock/" + sku).GET());
    }

    Reply restock(String sku, int available) {
        return send(json(request("/api/stock/" + sku), "PUT", "{\"available\": " + available + "}"));
    }

    Reply reserve(String sku, int quantity, Via via) {
        return send(reservation(sku, quantity, via, false));
    }

    /**
     * @return the answer of a reservation that gives up at once if the lock is taken ({@code wait=none})
     */
    Reply tryReserve(String sku, int quantity, Via via) {
        return send(reservation(sku, quantity, via, true));
    }

    /**
     * @param via {@link Via#CDI} or {@link Via#MANAGER}
     * @return the answer of a reservation run on a virtual thread of the sample's managed executor
     *         ({@code /api/virtual-threads/stock/{sku}/reservations}), where the server has Concurrency 3.1
     */
    Reply reserveOnVirtualThread(String sku, int quantity, Via via) {
        return send(json(request("/api/virtual-threads/stock/" + sku + "/reservations?via=" + via.parameter()), "POST",
                "{\"quantity\": " + quantity + "}"));
    }

    CompletableFuture<Reply> reserveAsync(String sku, int quantity, Via via) {
        return HTTP.sendAsync(reservation(sku, quantity, via, false).build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(SampleClient::reply);
    }

    /**
     * @return the answer, once it comes, of a reservation through the Quarkus sample's
     *         {@code TransformedReservations}, whose {@code @Locked} an annotation transformation added
     */
    CompletableFuture<Reply> reserveTransformedAsync(String sku, int quantity) {
        HttpRequest request = json(request("/api/transformed/" + sku + "/reservations"), "POST",
                "{\"quantity\": " + quantity + "}").build();
        return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(SampleClient::reply);
    }

    /**
     * @return {@code PUT /api/bank/{bank}/accounts/{account}}: the account opened with that balance
     */
    Reply openAccount(String bank, String account, long balance) {
        return send(json(request("/api/bank/" + bank + "/accounts/" + account), "PUT", "{\"balance\": " + balance + "}"));
    }

    /**
     * @return {@code GET /api/bank/{bank}}: its accounts and their total
     */
    Reply bank(String bank) {
        return send(request("/api/bank/" + bank).GET());
    }

    /**
     * @param fenced whether the transfer is fenced ({@code ?fenced=true}) or not
     * @return the answer of the transfer, once it comes
     */
    CompletableFuture<Reply> transferAsync(String bank, String from, String to, long amount, boolean fenced) {
        return HTTP.sendAsync(transferRequest(bank, from, to, amount, fenced).build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(SampleClient::reply);
    }

    /**
     * @return the answer of the fenced transfer through the sample's stateless session bean
     *         ({@code ?teller=ejb}), once it comes
     */
    CompletableFuture<Reply> sessionBeanTransferAsync(String bank, String from, String to, long amount) {
        return HTTP.sendAsync(json(request("/api/bank/" + bank + "/transfers?fenced=true&teller=ejb"), "POST",
                        "{\"from\": \"" + from + "\", \"to\": \"" + to + "\", \"amount\": " + amount + "}").build(),
                HttpResponse.BodyHandlers.ofString()).thenApply(SampleClient::reply);
    }

    Reply transfer(String bank, String from, String to, long amount, boolean fenced) {
        return send(transferRequest(bank, from, to, amount, fenced));
    }

    private HttpRequest.Builder transferRequest(String bank, String from, String to, long amount, boolean fenced) {
        return json(request("/api/bank/" + bank + "/transfers?fenced=" + fenced), "POST",
                "{\"from\": \"" + from + "\", \"to\": \"" + to + "\", \"amount\": " + amount + "}");
    }

    /**
     * @return {@code GET /api/locks?name=...}: the lock's description. The name goes in the query:
     *         Payara 7 answers 503 to a {@code :} in a request path, raw or percent-encoded (its
     *         authorization module refuses the URL pattern, see docs/payara.md)
     */
    Reply describeLock(String name) {
        return send(request("/api/locks?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8)).GET());
    }

    /**
     * @param job a scheduled job's lock name, such as {@code sample-job}
     * @return how long each of its runs on this server waited for its lock, in microseconds, oldest first
     */
    /**
     * One callback of a scheduled job on a server, from {@code /api/jobs/{job}/lock-waits}.
     *
     * @param at     when it went on to the lock
     * @param micros how long it waited for the lock, or until it skipped
     * @param ran    whether it ran the slot
     */
    record LockWait(Instant at, long micros, boolean ran) {
    }

    List<LockWait> lockWaits(String job) {
        Reply reply = send(request("/api/jobs/" + job + "/lock-waits").GET());
        if (reply.status() != 200) {
            throw new IllegalStateException("GET /api/jobs/" + job + "/lock-waits on " + name() + ": " + reply);
        }
        String raw = reply.string("raw");
        try (jakarta.json.JsonReader reader = jakarta.json.Json.createReader(new java.io.StringReader(raw))) {
            return reader.readArray().getValuesAs(jakarta.json.JsonObject.class).stream()
                    .map(callback -> new LockWait(Instant.parse(callback.getString("at")),
                            callback.getJsonNumber("micros").longValue(), callback.getBoolean("ran")))
                    .toList();
        }
    }

    private HttpRequest.Builder reservation(String sku, int quantity, Via via, boolean noWait) {
        return json(request("/api/stock/" + sku + "/reservations?via=" + via.parameter() + (noWait ? "&wait=none" : "")),
                "POST", "{\"quantity\": " + quantity + "}");
    }

    private static Reply reply(HttpResponse<String> response) {
        return Reply.of(response.statusCode(), response.body(), response.headers().firstValue("X-Mapped-By").orElse(null));
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(server.baseUri() + path)).timeout(REQUEST_TIMEOUT);
    }

    private static HttpRequest.Builder json(HttpRequest.Builder request, String method, String body) {
        return request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
    }

    private Reply send(HttpRequest.Builder request) {
        HttpRequest built = request.build();
        try {
            return reply(HTTP.send(built, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new UncheckedIOException(built.method() + " " + built.uri() + " on " + name() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return server.toString();
    }
}
