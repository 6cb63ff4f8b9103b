package dev.outlierlab.live.httpclient;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the {@link ReverseProxy} writes back to a client: an upstream's answer passed back with its end-to-end headers
 * (the hop-by-hop ones dropped, as on the way in) and {@code X-Outlier-Lab-Upstream} / {@code X-Outlier-Lab-Stage},
 * or the proxy's own answer as plain text; no body for {@code HEAD}, 204 and 304.
 */
final class ClientAnswers {
    /** Headers that belong to one connection, never passed on in either direction. */
    private static final Set<String> HOP_BY_HOP = Set.of(
            "connection",
            "keep-alive",
            "proxy-connection",
            "transfer-encoding",
            "te",
            "trailer",
            "upgrade",
            "content-length",
            "date");

    private ClientAnswers() {}

    /** The request's headers that go on to the upstream. */
    static Map<String, List<String>> forwardable(Headers headers) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        headers.forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                out.put(name, values);
            }
        });
        return out;
    }

    /** The upstream's answer, with who answered and what the stage did; a client gone meanwhile is let go. */
    static void passBack(HttpExchange exchange, FailoverResponse<byte[]> r) {
        try {
            Headers out = exchange.getResponseHeaders();
            r.response().headers().map().forEach((name, values) -> {
                if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    out.put(name, new ArrayList<>(values));
                }
            });
            out.set("X-Outlier-Lab-Upstream", r.endpoint());
            if (r.stage() != null) {
                out.set(
                        "X-Outlier-Lab-Stage",
                        r.stage().action().outputName() + " "
                                + String.join(",", r.stage().endpoints()));
            }
            send(exchange, r.status(), r.body());
        } catch (IOException e) {
            // the client went away or was too slow to read: nothing left to answer
        }
    }

    /** Asks for the connection to be closed after this answer. */
    static void closeAfter(HttpExchange exchange) {
        exchange.getResponseHeaders().set("Connection", "close");
    }

    /** The proxy's own answer; a client gone meanwhile is let go. */
    static void text(HttpExchange exchange, int status, String text) {
        try {
            sendText(exchange, status, text);
        } catch (IOException e) {
            // the client has gone
        }
    }

    static void sendText(HttpExchange exchange, int status, String text) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        send(exchange, status, text.getBytes(StandardCharsets.UTF_8));
    }

    static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        boolean empty =
                body.length == 0 || "HEAD".equals(exchange.getRequestMethod()) || status == 204 || status == 304;
        exchange.sendResponseHeaders(status, empty ? -1 : body.length);
        if (!empty) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
