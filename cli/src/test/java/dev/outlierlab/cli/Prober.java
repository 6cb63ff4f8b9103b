package dev.outlierlab.cli;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A kept-alive connection that sends one request at a time and reads the whole of its answer (the head, then the
 * body by its {@code Content-Length}, its chunks, or until the server closes), so the next request starts on a
 * connection with nothing left unread. A connection the server closed between two requests (an idle or a
 * {@code Connection: close} one) is replaced by a new one; an answer not complete within
 * {@link ServeAndProxyFuzzTest#ANSWER_MILLIS}, or cut short, fails with the request it was for.
 */
final class Prober implements Closeable {
    private final int port;
    private Socket socket;
    private int connections;
    private int onConnection;
    private int replaced;

    Prober(int port) {
        this.port = port;
    }

    /** A connection to the server on loopback, reads and the connect bounded by the answer time. */
    static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), ServeAndProxyFuzzTest.ANSWER_MILLIS);
        s.setSoTimeout(ServeAndProxyFuzzTest.ANSWER_MILLIS);
        return s;
    }

    /** Sends {@code request} and returns its whole answer, head and body; {@code what} names it in a failure. */
    String ask(String request, String what) throws IOException {
        if (socket == null) {
            open();
        }
        String answer = exchange(request, what);
        if (answer == null) {
            // closed by the server while it waited for this request: allowed once, on a new connection
            replaced++;
            open();
            answer = exchange(request, what);
            if (answer == null) {
                throw new AssertionError("a new connection was closed without an answer to " + what);
            }
        }
        onConnection++;
        return answer;
    }

    /** Where the last request went, for a failure message. */
    String describe() {
        return "request " + onConnection + " on connection " + connections + " (" + replaced
                + " closed by the server between requests before)";
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }

    private void open() throws IOException {
        close();
        socket = connect(port);
        connections++;
        onConnection = 0;
    }

    /** The answer, or null when the connection turned out closed before any byte of it. */
    private String exchange(String request, String what) throws IOException {
        InputStream in;
        StringBuilder head = new StringBuilder();
        try {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            in = socket.getInputStream();
            int c = in.read();
            if (c < 0) {
                return null;
            }
            head.append((char) c);
        } catch (SocketTimeoutException late) {
            throw late(what, "");
        } catch (SocketException closed) {
            return null;
        }
        try {
            while (head.indexOf("\r\n\r\n") < 0) {
                int c = in.read();
                if (c < 0) {
                    throw new AssertionError("the answer to " + what + " ended in its head: "
                            + ServeAndProxyFuzzTest.shown(head.toString()));
                }
                head.append((char) c);
            }
            String body = body(in, head.toString().toLowerCase(Locale.ROOT), what);
            return head + body;
        } catch (SocketTimeoutException late) {
            throw late(what, head.toString());
        }
    }

    private String body(InputStream in, String head, String what) throws IOException {
        if (!head.matches("(?s)http/1\\.[01] [1-5][0-9][0-9] .*")) {
            close(); // not an HTTP answer: shown as it is, and nothing more is read from this connection
            return "";
        }
        int status = Integer.parseInt(head.substring(9, 12));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = field(head, "content-length");
        if (status < 200 || status == 204 || status == 304) {
            // no body
        } else if (length != null) {
            int n = Integer.parseInt(length);
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
                throw new AssertionError("the answer to " + what + " ended after " + b.length + " of its " + n
                        + " bytes: " + ServeAndProxyFuzzTest.shown(head + new String(b, StandardCharsets.ISO_8859_1)));
            }
            body.writeBytes(b);
        } else if ("chunked".equals(field(head, "transfer-encoding"))) {
            for (int size; (size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0; ) {
                body.writeBytes(in.readNBytes(size));
                line(in);
            }
            while (!line(in).isEmpty()) {
                // trailers
            }
        } else {
            in.transferTo(body);
            close();
        }
        if ("close".equals(field(head, "connection"))) {
            close();
        }
        return body.toString(StandardCharsets.ISO_8859_1);
    }

    private static String field(String head, String name) {
        int at = head.indexOf("\r\n" + name + ":");
        return at < 0
                ? null
                : head.substring(at + name.length() + 3, head.indexOf("\r\n", at + 2))
                        .trim();
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("the chunked answer ended early");
            }
            if (c != '\r') {
                s.append((char) c);
            }
        }
        return s.toString();
    }

    private AssertionError late(String what, String got) {
        return new AssertionError("no complete answer within " + ServeAndProxyFuzzTest.ANSWER_MILLIS + " ms to " + what
                + " (" + describe() + "); got so far: " + ServeAndProxyFuzzTest.shown(got));
    }
}
