package dev.outlierlab.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for tests that need what a library client hides: half-sent requests, a
 * client that closes early, the moment the first byte of an answer arrives, and the raw chunks of a streamed
 * answer.
 */
final class RawHttp {
    private RawHttp() {}

    /**
     * An answer as read off the socket.
     *
     * @param firstByteMillis milliseconds from sending the request to the first byte of the answer
     * @param lastByteMillis  milliseconds from sending the request to the end of the answer
     */
    record Answer(int status, String headers, String body, long firstByteMillis, long lastByteMillis) {
        boolean chunked() {
            return headers.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked");
        }

        /** The body without the spaces a streamed answer starts with. */
        String json() {
            return body.stripLeading();
        }
    }

    /** A POST with {@code Connection: close}, so the server closes the connection after its answer. */
    static String post(int port, String path, String type, String body, String extraHeaders) {
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: " + type
                + "\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n" + extraHeaders
                + "Connection: close\r\n\r\n" + body;
    }

    static String get(int port, String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n";
    }

    /** Sends a raw request and reads the whole answer (the server closes the connection after it). */
    static Answer exchange(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            long sent = System.nanoTime();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            long first = -1;
            int n;
            try {
                while ((n = in.read(buffer)) > 0) {
                    if (first < 0) {
                        first = System.nanoTime();
                    }
                    got.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException | SocketException e) {
                // the answer so far is what the server sent before closing
            }
            long last = System.nanoTime();
            byte[] bytes = got.toByteArray();
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            int status = Integer.parseInt(text.substring(9, 12));
            int bodyAt = text.indexOf("\r\n\r\n");
            String headers = bodyAt < 0 ? text : text.substring(0, bodyAt);
            byte[] body = bodyAt < 0 ? new byte[0] : Arrays.copyOfRange(bytes, bodyAt + 4, bytes.length);
            boolean chunked = headers.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked");
            return new Answer(
                    status,
                    headers,
                    new String(chunked ? dechunk(body) : body, StandardCharsets.UTF_8),
                    (first - sent) / 1_000_000,
                    (last - sent) / 1_000_000);
        }
    }

    /** The body of a chunked answer without its framing; fails on a stream cut before its last chunk. */
    static byte[] dechunk(byte[] framed) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String text = new String(framed, StandardCharsets.ISO_8859_1);
        int at = 0;
        while (true) {
            int lineEnd = text.indexOf("\r\n", at);
            if (lineEnd < 0) {
                throw new AssertionError("a chunked answer cut short after " + body.size() + " bytes");
            }
            int size = Integer.parseInt(text.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return body.toByteArray();
            }
            body.write(framed, lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
    }
}
