package dev.outlierlab.live.httpclient;

import com.sun.net.httpserver.Headers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the {@link ReverseProxy} lets in, as the lab server's request guard does for {@code serve}: a request
 * must name the proxy in {@code Host} (127.0.0.1, localhost or [::1] with or without the proxy's port, the
 * bound address, or a name allowed with {@code --allow-host}), and a request with an {@code Origin} must come
 * from one of those names. Otherwise any web page could send requests through the proxy to the upstreams and,
 * after a DNS rebind, read the answers and {@code /stats}. It also refuses what the JDK server passes on but
 * the upstream request cannot carry: a method that is not an HTTP token, a header value with a control
 * character (RFC 9110 section 5.5: only HTAB, visible characters and spaces).
 */
final class ProxyGuard {
    private final Set<String> hosts = new HashSet<>();
    private final Set<String> origins = new HashSet<>();
    private final String home;

    ProxyGuard(String boundHost, int port, List<String> allowedHosts) {
        String bound = boundHost.contains(":") && !boundHost.startsWith("[") ? "[" + boundHost + "]" : boundHost;
        List<String> names = new ArrayList<>(List.of("127.0.0.1", "localhost", "[::1]", bound));
        names.addAll(allowedHosts);
        for (String name : names) {
            String n = name.toLowerCase(Locale.ROOT);
            String withPort = n.matches(".*:\\d+$") && !n.endsWith("]") ? n : n + ":" + port;
            hosts.add(n);
            hosts.add(withPort);
            origins.add("http://" + n);
            origins.add("http://" + withPort);
            origins.add("https://" + n);
            origins.add("https://" + withPort);
        }
        this.home = "http://127.0.0.1:" + port + "/";
    }

    /** Why the request is refused with a 403, or null when it may pass. */
    String refusal(Headers headers) {
        String host = headers.getFirst("Host");
        if (host == null) {
            return "a request without a Host header is refused; send Host: 127.0.0.1:PORT (HTTP/1.1)";
        }
        if (!hosts.contains(host.trim().toLowerCase(Locale.ROOT))) {
            return "Host '" + shown(host) + "' does not name this proxy; use " + home
                    + " (a page that reaches the proxy under another name is refused; allow a name with --allow-host)";
        }
        String origin = headers.getFirst("Origin");
        if (origin != null && !origins.contains(origin.trim().toLowerCase(Locale.ROOT))) {
            return "cross-origin request refused: Origin '" + shown(origin) + "' is not this proxy";
        }
        return null;
    }

    /** Why the request is malformed (answered 400), or null. */
    static String malformed(String method, Headers headers) {
        if (method.isEmpty() || !isToken(method)) {
            return "the method '" + shown(method) + "' is not an HTTP token (RFC 9110 section 9)";
        }
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            for (String value : e.getValue()) {
                for (int i = 0; i < value.length(); i++) {
                    char c = value.charAt(i);
                    if ((c < 0x20 && c != '\t') || c == 0x7f) {
                        return "the header " + shown(e.getKey()) + " has a control character (code " + (int) c
                                + ") in its value";
                    }
                }
            }
        }
        return null;
    }

    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A header's value for a message: at most 100 characters, control characters and non-ASCII escaped. */
    static String shown(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && sb.length() < 100; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.length() >= 100 || s.length() > 100 ? sb + "..." : sb.toString();
    }
}
