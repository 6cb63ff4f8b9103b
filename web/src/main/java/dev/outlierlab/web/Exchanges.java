package dev.outlierlab.web;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP exchange's request and answer as the lab server handles them: the method it takes, the body read up to
 * the lab's limit (an over-size one drained and answered with its 400), the uploaded file's name, and answers sent
 * with the lab's headers (content type, {@code nosniff}, no referrer, the page's content security policy).
 */
final class Exchanges {
    /** The most of an over-size body read (and dropped) after its 400, so the client sees the answer. */
    private static final long MAX_DRAIN_BYTES = 16L * 1024 * 1024;

    private static final String CSP =
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                    + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

    private Exchanges() {}

    static void requireMethod(HttpExchange ex, String method) {
        if (!ex.getRequestMethod().equals(method)) {
            ex.getResponseHeaders().set("Allow", method);
            throw new ApiException(
                    405,
                    ex.getRequestMethod() + " is not allowed on "
                            + ex.getRequestURI().getPath() + "; use " + method);
        }
    }

    /**
     * The body as UTF-8. One over the limit (by its Content-Length, or once reading passes the limit) is read
     * and dropped, up to a bound, and then answered with its 400, so that the client sees the answer instead of
     * a reset connection; then the connection is closed.
     */
    static String readBody(HttpExchange ex, int limit) throws IOException {
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        InputStream in = ex.getRequestBody();
        byte[] body = declaredOver(declared, limit) ? new byte[limit + 1] : in.readNBytes(limit + 1);
        if (body.length > limit) {
            // Drain first: the JDK server, on closing an exchange, reads at most 64 KiB of a body left unread and
            // then resets the connection, which can reach the client before it has read the answer.
            drain(ex);
            ex.getResponseHeaders().set("Connection", "close");
            String size = declared != null ? " (" + declared + " bytes)" : "";
            sendJson(
                    ex,
                    400,
                    LabApi.error("the request body" + size + " is over the lab's limit of " + (limit / 1024) + " KiB ("
                            + limit + " bytes); a scenario is far smaller, so check what was sent"));
            throw new Answered();
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    private static boolean declaredOver(String declared, int limit) {
        try {
            return declared != null && Long.parseLong(declared.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Reads and drops what is left of a refused body, up to {@link #MAX_DRAIN_BYTES}. */
    private static void drain(HttpExchange ex) {
        try {
            InputStream in = ex.getRequestBody();
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            int n;
            while (total < MAX_DRAIN_BYTES && (n = in.read(buffer)) > 0) {
                total += n;
            }
        } catch (IOException e) {
            // the client stopped sending or went away: nothing more to answer
        }
    }

    /** The answer has been sent already; only the connection is left to close. */
    static final class Answered extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Answered() {
            super(null, null, false, false);
        }
    }

    /** The uploaded file's name from {@code ?name=}, for messages; letters, digits and {@code ._-} only. */
    static String sourceName(URI uri) {
        String query = uri.getQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("name=")) {
                    String name = part.substring(5).replaceAll("[^A-Za-z0-9._-]", "_");
                    if (!name.isEmpty()) {
                        return name.length() > 80 ? name.substring(0, 80) : name;
                    }
                }
            }
        }
        return "scenario";
    }

    static void sendJson(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        send(ex, status, "application/json; charset=utf-8", body);
    }

    /** The headers of a JSON answer, for one sent in pieces ({@link StreamedAnswer}). */
    static void jsonHeaders(HttpExchange ex) {
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        headers(ex, "application/json; charset=utf-8");
    }

    private static void headers(HttpExchange ex, String type) {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", CSP);
    }

    static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        headers(ex, type);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
