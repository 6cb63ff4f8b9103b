package dev.outlierlab.httpserver;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One request and its answer on a worker thread, with the JDK server's {@link HttpExchange} semantics
 * ({@code sun.net.httpserver.ExchangeImpl}): {@code sendResponseHeaders(code, n)} frames a body of {@code n}
 * bytes, {@code 0} a chunked one, {@code -1} none; closing the exchange finishes the answer, reads what is left
 * of the request body (at most 64 KiB, within the request's time) and gives a connection that can carry a next
 * request back to the selector thread; otherwise, and when the handler fails, the connection is closed.
 */
final class BoundedExchange extends HttpExchange {
    /** The most of a request body left unread that is read and dropped to keep the connection (the JDK's 64 KiB). */
    private static final long DRAIN_BYTES = 64 * 1024;
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
            java.util.Locale.US);

    private final BoundedHttpServer server;
    private final Connection connection;
    private final RequestHead head;
    private final Headers responseHeaders = new Headers();
    private final Map<String, Object> attributes = new HashMap<>();
    private final RequestBody requestBody;
    private final ResponseBody responseBody;
    private InputStream in;
    private OutputStream out;
    private int responseCode = -1;
    private boolean closeAfter;
    private boolean closed;

    BoundedExchange(BoundedHttpServer server, Connection connection, RequestHead head) throws IOException {
        this.server = server;
        this.connection = connection;
        this.head = head;
        this.requestBody = new RequestBody(new ConnectionInput(connection), head.contentLength(), head.chunked());
        this.responseBody = new ResponseBody(new BufferedOutputStream(connection.channel.socket().getOutputStream(),
                16 * 1024), () -> finish(!closeAfter));
        this.in = requestBody;
        this.out = responseBody;
        this.closeAfter = head.wantsClose();
    }

    /**
     * Runs {@code handler} on this exchange, which stays open until it is closed (by the handler or any thread it
     * hands the exchange to); a handler that fails leaves the connection closed.
     */
    void run(HttpHandler handler) {
        try {
            String expect = head.headers().getFirst("Expect");
            if (expect != null && expect.equalsIgnoreCase("100-continue") && !requestBody.finished()) {
                OutputStream raw = connection.channel.socket().getOutputStream();
                raw.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                raw.flush();
            }
            handler.handle(this);
        } catch (IOException | RuntimeException e) {
            finish(false);
        } catch (Error e) {
            finish(false);
            throw e;
        }
    }

    @Override
    public Headers getRequestHeaders() {
        return head.headers();
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return head.uri();
    }

    @Override
    public String getRequestMethod() {
        return head.method();
    }

    @Override
    public HttpContext getHttpContext() {
        return server.context();
    }

    @Override
    public void close() {
        finish(!closeAfter);
    }

    @Override
    public InputStream getRequestBody() {
        return in;
    }

    @Override
    public OutputStream getResponseBody() {
        return out;
    }

    @Override
    public void sendResponseHeaders(int code, long length) throws IOException {
        if (responseBody.started()) {
            throw new IOException("headers already sent");
        }
        responseCode = code;
        boolean head = this.head.method().equals("HEAD");
        ResponseBody.Framing framing;
        Headers h = responseHeaders;
        if (code < 200 || code == 204 || code == 304) {
            h.remove("Content-length");
            framing = ResponseBody.Framing.NONE;
        } else if (head || length == -1) {
            if (!h.containsKey("Content-length")) {
                h.set("Content-length", head && length > 0 ? Long.toString(length) : "0");
            }
            framing = ResponseBody.Framing.NONE;
        } else if (length == 0) {
            if (this.head.http10()) {
                closeAfter = true;
                framing = ResponseBody.Framing.RAW;
            } else {
                h.set("Transfer-encoding", "chunked");
                framing = ResponseBody.Framing.CHUNKED;
            }
        } else {
            h.set("Content-length", Long.toString(length));
            framing = ResponseBody.Framing.FIXED;
        }
        String connectionHeader = h.getFirst("Connection");
        if (connectionHeader != null && connectionHeader.equalsIgnoreCase("close")) {
            closeAfter = true;
        }
        if (!h.containsKey("Date")) {
            h.set("Date", DATE.format(ZonedDateTime.now(ZoneOffset.UTC)));
        }
        StringBuilder sb = new StringBuilder(256).append("HTTP/1.1 ").append(code).append(' ')
                .append(StatusReasons.of(code)).append("\r\n");
        for (Map.Entry<String, List<String>> e : h.entrySet()) {
            for (String v : e.getValue()) {
                sb.append(e.getKey()).append(": ").append(v).append("\r\n");
            }
        }
        sb.append("\r\n");
        connection.answerDeadlineNanos = System.nanoTime() + server.limits().responseNanos();
        responseBody.start(sb.toString().getBytes(StandardCharsets.ISO_8859_1), framing, length);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        try {
            return (InetSocketAddress) connection.channel.getRemoteAddress();
        } catch (IOException e) {
            return new InetSocketAddress(connection.client, 0);
        }
    }

    @Override
    public int getResponseCode() {
        return responseCode;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        try {
            return (InetSocketAddress) connection.channel.getLocalAddress();
        } catch (IOException e) {
            return server.getAddress();
        }
    }

    @Override
    public String getProtocol() {
        return head.protocol();
    }

    @Override
    public Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        attributes.put(name, value);
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        if (i != null) {
            in = i;
        }
        if (o != null) {
            out = o;
        }
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }

    /** Ends the exchange once: the answer finished, the body drained, the connection kept or closed. */
    private synchronized void finish(boolean keep) {
        if (closed) {
            return;
        }
        closed = true;
        boolean reusable = keep && responseBody.started();
        try {
            if (responseBody.started()) {
                responseBody.close();
            }
        } catch (IOException e) {
            reusable = false;
        }
        reusable = reusable && responseBody.complete() && !connection.isClosed()
                && (requestBody.finished() || requestBody.drain(DRAIN_BYTES));
        connection.answerDeadlineNanos = Long.MAX_VALUE;
        server.loop().finished(connection, reusable);
    }
}
