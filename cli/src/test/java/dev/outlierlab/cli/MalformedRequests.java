package dev.outlierlab.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Seeded malformed and ambiguous HTTP/1.1 requests: a well-formed request to the server, then one to three of
 * the mutations hostile clients send (a bare CR or LF, a NUL or any byte at a random place, a space or NUL in a
 * header name, two {@code Host} or {@code Origin} headers, conflicting or huge lengths, chunk sizes past 2^63,
 * an obsolete line fold, a head over 64 KiB, 250 headers, a truncated head or body, a bad version or method).
 * The same seed gives the same requests.
 */
final class MalformedRequests {
    private final Random random;
    private final String host;

    MalformedRequests(long seed, int port) {
        this.random = new Random(seed);
        this.host = "127.0.0.1:" + port;
    }

    /** The next request's bytes. */
    byte[] next() {
        String body = random.nextBoolean() ? "" : "{\"duration\": \"5s\"}";
        String head = (body.isEmpty() ? "GET /api/settings" : "POST /api/scenario") + " HTTP/1.1\r\nHost: " + host
                + "\r\nContent-Type: application/json\r\n"
                + (body.isEmpty() ? "" : "Content-Length: " + body.length() + "\r\n") + "\r\n";
        byte[] request = (head + body).getBytes(StandardCharsets.ISO_8859_1);
        int mutations = 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            request = mutate(request);
        }
        return request;
    }

    private byte[] mutate(byte[] r) {
        String s = new String(r, StandardCharsets.ISO_8859_1);
        int headEnd = Math.max(0, s.indexOf("\r\n\r\n"));
        int at = headEnd == 0 ? 0 : random.nextInt(headEnd);
        return switch (random.nextInt(18)) {
            case 0 -> insert(s, at, "\r");
            case 1 -> insert(s, at, "\n");
            case 2 -> insert(s, at, "\0");
            case 3 -> insert(s, at, String.valueOf((char) random.nextInt(256)));
            case 4 -> header(s, "X-A: a\rb");
            case 5 -> header(s, "X\rA: b");
            case 6 -> header(s, random.nextBoolean() ? "X A: b" : "X\0A: b");
            case 7 -> header(s, "Host: evil.example");
            case 8 -> header(s, "Origin: http://" + host + "\r\nOrigin: http://evil.example");
            case 9 -> header(s, "Content-Length: " + (random.nextBoolean() ? "99999999999999999999" : "-1"));
            case 10 -> header(s, "Content-Length: 3\r\nContent-Length: 4");
            case 11 -> chunked(s, random.nextBoolean() ? "ffffffffffffffff" : "1" + "0".repeat(20));
            case 12 -> header(s, "X-Folded: a\r\n b");
            case 13 -> header(s, "X-Big: " + "a".repeat(66 * 1024 + random.nextInt(1024)));
            case 14 -> header(s, "X-Many: 1\r\n".repeat(250).trim());
            case 15 -> bytes(s.substring(0, random.nextInt(s.length() + 1)));
            case 16 -> bytes(s.replaceFirst("HTTP/1\\.1", random.nextBoolean() ? "HTTP/9.9" : "HTTP/1.1x"));
            default -> bytes(s.replaceFirst("^[A-Z]+", random.nextBoolean() ? "G(T" : "GET /a b"));
        };
    }

    private static byte[] insert(String s, int at, String what) {
        return bytes(s.substring(0, at) + what + s.substring(at));
    }

    private static byte[] header(String s, String line) {
        int first = s.indexOf("\r\n");
        return first < 0 ? bytes(s + "\r\n" + line + "\r\n\r\n") : insert(s, first + 2, line + "\r\n");
    }

    private byte[] chunked(String s, String size) {
        int first = s.indexOf("\r\n");
        String line = s.substring(0, Math.max(0, first)).replaceFirst("^GET", "POST");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bytes(line + "\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + size + "\r\nabc\r\n0\r\n\r\n"));
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
