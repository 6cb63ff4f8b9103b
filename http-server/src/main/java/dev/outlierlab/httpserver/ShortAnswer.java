package dev.outlierlab.httpserver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The server's own short answers (a head too large or ambiguous, no worker free), written without waiting:
 * what the client has sent already is read and dropped first, so that the close that follows does not reset
 * the answer away, as the JDK server's {@code ServerImpl.reject} answers before closing.
 */
final class ShortAnswer {
    private ShortAnswer() {
    }

    static void sendAndClose(Connection c, int status, String message) {
        if (!c.channel.isBlocking()) {
            // what the client has sent already is read and dropped, so that the close does not reset the answer
            try {
                ByteBuffer skip = ByteBuffer.allocate(16 * 1024);
                for (int i = 0; i < 16 && c.channel.read(skip) > 0; i++) {
                    skip.clear();
                }
            } catch (IOException e) {
                // nothing to drop
            }
        }
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + StatusReasons.of(status) + "\r\nContent-Type: text/plain; "
                + "charset=utf-8\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        try {
            ByteBuffer out = ByteBuffer.allocate(head.length() + body.length);
            out.put(head.getBytes(StandardCharsets.US_ASCII)).put(body).flip();
            c.channel.write(out);
        } catch (IOException e) {
            // the client has gone: nothing to tell it
        }
        c.close();
    }
}
