package dev.locksmith.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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

    private final LibertyServer server;

    SampleClient(LibertyServer server) {
        this.server = server;
    }

    String name() {
        return server.name();
    }

    Reply info() {
        return send(request("/api/info").GET());
    }

    Reply readiness() {
        return send(request("/health/ready").GET());
    }

    Reply level(String sku) {
        return send(request("/api/stock/" + sku).GET());
    }

    Reply restock(String sku, int available) {
        return send(json(request("/api/stock/" + sku), "PUT", "{\"available\": " + available + "}"));
    }

    /**
     * @param hooks {@code X-Test-*} headers as name, value pairs: see {@link #traced}
     */
    Reply reserve(String sku, int quantity, Via via, String... hooks) {
        return send(reservation(sku, quantity, via, hooks));
    }

    CompletableFuture<Reply> reserveAsync(String sku, int quantity, Via via, String... hooks) {
        return HTTP.sendAsync(reservation(sku, quantity, via, hooks).build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> Reply.of(response.statusCode(), response.body()));
    }

    /**
     * @return the headers that trace a request as {@code id}, pausing at {@code pause} (or nowhere if null)
     */
    static String[] traced(String id, Point pause) {
        return pause == null ? new String[] {"X-Test-Id", id}
                : new String[] {"X-Test-Id", id, "X-Test-Pause", pause.header()};
    }

    /**
     * @return the headers that trace a request as {@code id}, pause it at {@code pause}, then fail it there
     */
    static String[] failing(String id, Point point) {
        return new String[] {"X-Test-Id", id, "X-Test-Pause", point.header(), "X-Test-Fail", point.header()};
    }

    /**
     * Asks the server whether traced request {@code id} reached {@code point}; the server
     * waits up to {@code wait} for it on a latch.
     */
    boolean reached(String id, Point point, Duration wait) {
        Reply reply = send(request("/api/test-hooks/" + id + "/" + point.header() + "?waitMs=" + wait.toMillis()).GET());
        if (reply.status() != 200) {
            throw new AssertionError("Test hooks of " + name() + " answered " + reply);
        }
        return reply.flag("reached");
    }

    void resume(String id) {
        Reply reply = send(request("/api/test-hooks/" + id + "/resume").POST(HttpRequest.BodyPublishers.noBody()));
        if (reply.status() != 204) {
            throw new AssertionError("Resuming " + id + " on " + name() + " answered " + reply);
        }
    }

    private HttpRequest.Builder reservation(String sku, int quantity, Via via, String... hooks) {
        HttpRequest.Builder request = json(request("/api/stock/" + sku + "/reservations?via=" + via.parameter()),
                "POST", "{\"quantity\": " + quantity + "}");
        for (int i = 0; i + 1 < hooks.length; i += 2) {
            request.header(hooks[i], hooks[i + 1]);
        }
        return request;
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
            HttpResponse<String> response = HTTP.send(built, HttpResponse.BodyHandlers.ofString());
            return Reply.of(response.statusCode(), response.body());
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
