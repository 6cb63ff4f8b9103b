package dev.outlierlab.web;

import com.sun.net.httpserver.HttpExchange;
import dev.outlierlab.config.Wording;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Keeps other web sites out of the lab. A page on another site can make a browser send requests to
 * {@code 127.0.0.1}, and a DNS-rebinding page can even read the answers under its own name; so every request
 * must name this server in {@code Host} ({@code 127.0.0.1:PORT}, {@code localhost:PORT}, {@code [::1]:PORT} or
 * the address given with {@code --host}), a request that carries an {@code Origin} must come from one of those
 * addresses, and a POST must declare a JSON (or, for a scenario file, YAML) body: the {@code text/plain} and
 * form types that a page may send without asking the browser first are refused. A refusal is a 403 or 415
 * whose message says which header was wrong.
 */
final class RequestGuard {
    private static final Set<String> JSON = Set.of("application/json");
    private static final Set<String> JSON_OR_YAML =
            Set.of("application/json", "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml");

    private final Set<String> hosts;
    private final Set<String> origins;
    private final String home;

    /** For a server bound to {@code boundHost} (as given to {@code --host}) at {@code port}. */
    RequestGuard(String boundHost, int port) {
        String bound = boundHost.contains(":") && !boundHost.startsWith("[") ? "[" + boundHost + "]" : boundHost;
        this.hosts = Set.copyOf(Stream.of("127.0.0.1", "localhost", "[::1]", bound)
                .map(h -> h.toLowerCase(Locale.ROOT) + ":" + port)
                .toList());
        this.origins = Set.copyOf(hosts.stream().map(h -> "http://" + h).toList());
        this.home = "http://127.0.0.1:" + port + "/";
    }

    /** Throws a 403 for a foreign {@code Host} or {@code Origin}. */
    void checkHostAndOrigin(HttpExchange ex) {
        String host = ex.getRequestHeaders().getFirst("Host");
        if (host != null && !hosts.contains(host.trim().toLowerCase(Locale.ROOT))) {
            throw new ApiException(
                    403,
                    "Host '" + printable(host) + "' does not name this server; open the lab at " + home
                            + " (a page that reaches the lab under another name is refused)");
        }
        String origin = ex.getRequestHeaders().getFirst("Origin");
        if (origin != null && !origins.contains(origin.trim().toLowerCase(Locale.ROOT))) {
            throw new ApiException(
                    403,
                    "cross-origin request refused: Origin '" + printable(origin)
                            + "' is not the lab; only the lab's own page at " + home + " may call the API");
        }
    }

    /** Throws a 415 unless a POST declares JSON (or, with {@code yaml}, YAML); a request without the header passes. */
    void checkContentType(HttpExchange ex, boolean yaml) {
        String declared = ex.getRequestHeaders().getFirst("Content-Type");
        if (declared == null) {
            return;
        }
        String type = declared.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!(yaml ? JSON_OR_YAML : JSON).contains(type)) {
            throw new ApiException(
                    415,
                    "Content-Type '" + printable(declared) + "' is not accepted on "
                            + ex.getRequestURI().getPath() + "; send Content-Type: application/json"
                            + (yaml ? " or application/yaml" : ""));
        }
    }

    private static String printable(String header) {
        return Wording.shortPrefix(header);
    }
}
