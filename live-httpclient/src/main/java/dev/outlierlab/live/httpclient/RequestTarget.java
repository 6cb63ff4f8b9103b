package dev.outlierlab.live.httpclient;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * Checks what a caller asks the {@link FailoverClient} to send before any upstream sees it, and builds each
 * attempt's URI on the chosen upstream. A target is an origin-form request target (RFC 9112 section 3.2.1):
 * an absolute path starting with one {@code /}, an optional query, visible ASCII only (percent-encode the
 * rest), no fragment; or a {@link URI} whose path and query are taken the same way, so that nothing in it
 * (user info, a host, a {@code //} authority) can move the request to another host. The URI built for an
 * upstream is checked to have the upstream's scheme, host and port.
 */
final class RequestTarget {
    /** Longest target accepted: what common servers accept in a request line (8 KiB). */
    static final int MAX_TARGET = 8192;

    private static final int SHOWN = 60;

    private RequestTarget() {}

    /** The method, checked to be an RFC 9110 token of at most 32 characters. */
    static String method(String method) throws RejectedRequestException {
        if (method == null || method.isEmpty() || method.length() > 32) {
            throw new RejectedRequestException("method", String.valueOf(method), "an HTTP method such as GET or POST");
        }
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            boolean tchar = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!tchar) {
                throw new RejectedRequestException(
                        "method", method, "an HTTP method (letters, digits, !#$%&'*+-.^_`|~)");
            }
        }
        return method;
    }

    /** The path and query, checked. */
    static String pathAndQuery(String target) throws RejectedRequestException {
        Objects.requireNonNull(target, "path and query");
        if (target.isEmpty() || target.charAt(0) != '/' || target.startsWith("//")) {
            throw new RejectedRequestException(
                    "request target", target, "an absolute path starting with a single /, such as /items?id=1");
        }
        if (target.length() > MAX_TARGET) {
            throw new RejectedRequestException("request target", target, "at most " + MAX_TARGET + " characters");
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '#' || c == '\\') {
                throw new RejectedRequestException(
                        "request target",
                        target,
                        "visible ASCII without spaces, "
                                + "control characters, # or \\ (percent-encode them); bad character at " + i);
            }
        }
        return target;
    }

    /** The path and query of a caller's URI (its scheme and authority, naming the service, are not used). */
    static String pathAndQuery(URI uri) throws RejectedRequestException {
        String path = uri.getRawPath();
        if (uri.isOpaque() || path == null) {
            throw new RejectedRequestException("request URI", uri.toString(), "a URI with an absolute path");
        }
        if (path.isEmpty()) {
            path = "/";
        }
        return pathAndQuery(uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery());
    }

    /** The upstream's URI for a checked target, checked to stay on the upstream. */
    static URI on(URI base, String checkedTarget) throws RejectedRequestException {
        String root = base.toString();
        if (root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        URI uri;
        try {
            uri = new URI(root + checkedTarget);
        } catch (URISyntaxException e) {
            throw new RejectedRequestException(
                    "request target", checkedTarget, "a valid URI path and query (" + e.getReason() + ")");
        }
        if (!Objects.equals(uri.getScheme(), base.getScheme())
                || !Objects.equals(uri.getHost(), base.getHost())
                || uri.getPort() != base.getPort()
                || uri.getRawUserInfo() != null) {
            throw new RejectedRequestException(
                    "request target",
                    checkedTarget,
                    "a target that stays on the upstream " + base.getHost() + ":" + base.getPort());
        }
        return uri;
    }

    /** A short, printable prefix of a value for a message. */
    static String shown(String value) {
        StringBuilder sb = new StringBuilder(SHOWN + 8).append('"');
        for (int i = 0; i < value.length() && i < SHOWN; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (value.length() > SHOWN) {
            sb.append("...");
        }
        return sb.append('"').toString();
    }
}
