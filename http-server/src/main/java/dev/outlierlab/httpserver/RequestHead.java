package dev.outlierlab.httpserver;

import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A request's line and headers as read off the connection, with how its body is framed: by
 * {@code Content-Length}, chunked, or none. Parsing is lenient where the JDK server is (a bare LF ends a line,
 * leading empty lines are skipped, a folded line continues the header above) and strict where framing is at
 * stake: a request with both framings, two different lengths or another transfer coding is refused, as RFC
 * 9112 section 6.3 says. Header values keep their control characters for the handler to judge.
 */
record RequestHead(String method, URI uri, String protocol, Headers headers, long contentLength, boolean chunked) {
    /** Headers at most in one request (the JDK server's {@code sun.net.httpserver.maxReqHeaders}). */
    static final int MAX_HEADERS = 200;

    /** A request that cannot be handled: answered with {@code status} and closed. */
    static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    boolean http10() {
        return protocol.equals("HTTP/1.0");
    }

    /** Whether the client asked to close the connection after this request (or HTTP/1.0 without keep-alive). */
    boolean wantsClose() {
        String c = headers.getFirst("Connection");
        String v = c == null ? "" : c.toLowerCase(Locale.ROOT);
        return http10() ? !v.contains("keep-alive") : v.contains("close");
    }

    /** Parses {@code b[from..to)}, which ends with the empty line that ends the headers. */
    static RequestHead parse(byte[] b, int from, int to) throws BadRequest {
        String text = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\n", -1);
        int i = 0;
        while (i < lines.length && stripCr(lines[i]).isEmpty()) {
            i++;
        }
        if (i == lines.length) {
            throw new BadRequest(400, "no request line");
        }
        String line = stripCr(lines[i++]);
        int sp1 = line.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
        if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0) {
            throw new BadRequest(400, "bad request line");
        }
        String method = line.substring(0, sp1);
        String target = line.substring(sp1 + 1, sp2);
        String protocol = line.substring(sp2 + 1);
        if (!protocol.equals("HTTP/1.1") && !protocol.equals("HTTP/1.0")) {
            throw new BadRequest(505, "HTTP/1.1 or HTTP/1.0 only");
        }
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            throw new BadRequest(400, "bad request target");
        }
        Headers headers = new Headers();
        String lastName = null;
        int count = 0;
        for (; i < lines.length; i++) {
            String h = stripCr(lines[i]);
            if (h.isEmpty()) {
                continue;
            }
            if ((h.charAt(0) == ' ' || h.charAt(0) == '\t') && lastName != null) {
                java.util.List<String> values = headers.get(lastName);
                int last = values.size() - 1;
                values.set(last, values.get(last) + " " + trim(h));
                continue;
            }
            int colon = h.indexOf(':');
            if (colon <= 0 || h.charAt(colon - 1) == ' ' || h.charAt(colon - 1) == '\t') {
                throw new BadRequest(400, "bad header line");
            }
            if (++count > MAX_HEADERS) {
                throw new BadRequest(431, "more than " + MAX_HEADERS + " headers");
            }
            lastName = h.substring(0, colon);
            headers.add(lastName, trim(h.substring(colon + 1)));
        }
        String te = headers.getFirst("Transfer-Encoding");
        java.util.List<String> lengths = headers.get("Content-Length");
        boolean chunked = false;
        long length = 0;
        if (te != null) {
            if (lengths != null || !te.equalsIgnoreCase("chunked") || headers.get("Transfer-Encoding").size() > 1) {
                throw new BadRequest(400, "Transfer-Encoding must be chunked alone, without Content-Length");
            }
            chunked = true;
        } else if (lengths != null) {
            length = -1;
            for (String l : lengths) {
                long n = parseLength(l);
                if (length >= 0 && n != length) {
                    throw new BadRequest(400, "two different Content-Length values");
                }
                length = n;
            }
        }
        return new RequestHead(method, uri, protocol, headers, length, chunked);
    }

    private static long parseLength(String s) throws BadRequest {
        if (s.isEmpty() || s.length() > 18) {
            throw new BadRequest(400, "bad Content-Length");
        }
        for (int k = 0; k < s.length(); k++) {
            if (s.charAt(k) < '0' || s.charAt(k) > '9') {
                throw new BadRequest(400, "bad Content-Length");
            }
        }
        return Long.parseLong(s);
    }

    private static String stripCr(String s) {
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    /** Trims spaces and tabs only: other control characters stay, for the handler to refuse. */
    private static String trim(String s) {
        int a = 0;
        int z = s.length();
        while (a < z && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
            a++;
        }
        while (z > a && (s.charAt(z - 1) == ' ' || s.charAt(z - 1) == '\t')) {
            z--;
        }
        return s.substring(a, z);
    }

    /** The index just past the empty line that ends the head in {@code b[from..to)}, or -1. */
    static int end(byte[] b, int from, int to, int fresh) {
        for (int i = Math.max(from, to - fresh - 3); i < to; i++) {
            if (b[i] == '\n' && !onlyEmptyLinesBefore(b, from, i)) {
                if (i + 1 < to && b[i + 1] == '\n') {
                    return i + 2;
                }
                if (i + 2 < to && b[i + 1] == '\r' && b[i + 2] == '\n') {
                    return i + 3;
                }
            }
        }
        return -1;
    }

    /** Whether {@code b[from..i]} holds line ends only (empty lines before a request line, to be skipped). */
    private static boolean onlyEmptyLinesBefore(byte[] b, int from, int i) {
        for (int k = from; k <= i; k++) {
            if (b[k] != '\r' && b[k] != '\n') {
                return false;
            }
        }
        return true;
    }
}
