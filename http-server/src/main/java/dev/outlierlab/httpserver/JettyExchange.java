package dev.outlierlab.httpserver;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.BufferedOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One request and its answer, with the JDK server's {@link HttpExchange} semantics
 * ({@code sun.net.httpserver.ExchangeImpl}) over a Jetty {@link Request} and {@link Response}:
 * {@code sendResponseHeaders(code, n)} frames a body of {@code n} bytes, {@code 0} a chunked one (Jetty chooses
 * chunks for a body written in pieces), {@code -1} none. The exchange stays open after the handler returns until
 * it is closed, by the handler or any thread it hands the exchange to (the proxy answers from another thread);
 * closing it completes Jetty's callback. An exchange closed without an answer, or whose handler failed before
 * answering, closes the connection unanswered, as the JDK server does.
 */
final class JettyExchange extends HttpExchange {
    private final BoundedHttpServer server;
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final ConnectionGuard guard;
    private final ConnectionGuard.Tracked tracked;
    private final Headers requestHeaders = new Headers();
    private final Headers responseHeaders = new Headers();
    private final Map<String, Object> attributes = new HashMap<>();
    private final URI uri;
    private InputStream in;
    private final OutputStream raw;
    private OutputStream out;
    private int responseCode = -1;
    private boolean headersSent;
    private boolean closed;
    private volatile IOException badBody;

    JettyExchange(
            BoundedHttpServer server,
            Request request,
            Response response,
            Callback callback,
            URI uri,
            ConnectionGuard guard,
            ConnectionGuard.Tracked tracked) {
        this.server = server;
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.uri = uri;
        this.guard = guard;
        this.tracked = tracked;
        for (HttpField field : request.getHeaders()) {
            requestHeaders.add(field.getName(), field.getValue() == null ? "" : field.getValue());
        }
        this.in = new BodyInput(Content.Source.asInputStream(request));
        this.raw = new BufferedOutputStream(Content.Sink.asOutputStream(response), 16 * 1024);
        this.out = new AnswerOutput();
    }

    /** The answer's body; closing it ends the exchange, as the JDK server's does. */
    private final class AnswerOutput extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            raw.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            raw.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            raw.flush();
        }

        @Override
        public void close() {
            JettyExchange.this.close();
        }
    }

    /** Runs {@code handler}; a handler that fails before answering leaves the connection closed. */
    void run(HttpHandler handler) {
        try {
            handler.handle(this);
        } catch (IOException | RuntimeException e) {
            fail(e);
        } catch (Error e) {
            fail(e);
            throw e;
        }
    }

    /** The request body as it is read: reaching its end tells the guard the request has fully arrived. */
    private final class BodyInput extends FilterInputStream {
        BodyInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return seen(super.read(b, off, len));
            } catch (IOException e) {
                badBody = e;
                throw e;
            }
        }

        private int seen(int n) {
            if (n < 0 && tracked != null) {
                tracked.bodyDone = true;
            }
            return n;
        }
    }

    @Override
    public Headers getRequestHeaders() {
        return requestHeaders;
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return uri;
    }

    @Override
    public String getRequestMethod() {
        return request.getMethod();
    }

    @Override
    public HttpContext getHttpContext() {
        return server.context();
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
    public synchronized void sendResponseHeaders(int code, long length) throws IOException {
        if (headersSent) {
            throw new IOException("headers already sent");
        }
        headersSent = true;
        responseCode = code;
        boolean head = "HEAD".equals(request.getMethod());
        var fields = response.getHeaders();
        for (Map.Entry<String, List<String>> e : responseHeaders.entrySet()) {
            if (e.getKey().equalsIgnoreCase("Content-Length") || e.getKey().equalsIgnoreCase("Transfer-Encoding")) {
                continue;
            }
            for (String v : e.getValue()) {
                fields.add(e.getKey(), v);
            }
        }
        String declared = responseHeaders.getFirst("Content-Length");
        if (code < 200 || code == 204 || code == 304) {
            // no body
        } else if (head || length == -1) {
            fields.put(
                    HttpHeader.CONTENT_LENGTH,
                    declared != null ? declared : head && length > 0 ? Long.toString(length) : "0");
        } else if (length > 0) {
            fields.put(HttpHeader.CONTENT_LENGTH, Long.toString(length));
        } else if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_1) {
            // chunked even on a connection that closes after it, as the JDK server does: a client reading a
            // streamed answer sees each piece framed
            fields.put(HttpHeader.TRANSFER_ENCODING, "chunked");
        }
        response.setStatus(code);
        if (tracked != null) {
            tracked.answerSince = System.nanoTime();
        }
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return inet(request.getConnectionMetaData().getRemoteSocketAddress());
    }

    @Override
    public int getResponseCode() {
        return responseCode;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return inet(request.getConnectionMetaData().getLocalSocketAddress());
    }

    private InetSocketAddress inet(SocketAddress a) {
        return a instanceof InetSocketAddress i ? i : server.getAddress();
    }

    @Override
    public String getProtocol() {
        return request.getConnectionMetaData().getProtocol();
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

    /** Ends the exchange once: the answer finished and the callback completed, or the connection closed. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (!headersSent) {
            if (!answerBadBody()) {
                abort(new IOException("the exchange was closed without an answer"));
            }
            return;
        }
        try {
            raw.close();
        } catch (IOException | RuntimeException e) {
            abort(e);
            return;
        }
        // the guard first: completing the callback lets Jetty handle the connection's next (pipelined) request,
        // whose start must not be overwritten by this one's end
        end();
        callback.succeeded();
    }

    private void fail(Throwable e) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (headersSent || !answerBadBody()) {
            abort(e);
        }
    }

    /**
     * When Jetty's parser refused the request body (a chunk size past its bound, a bad chunk line) before any
     * answer: a 400 saying so, and the connection closed. Returns whether it was answered.
     */
    private boolean answerBadBody() {
        if (badBody == null || response.isCommitted()) {
            return false;
        }
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        end();
        Response.writeError(
                request, response, callback, 400, "the request body is malformed: " + ServerErrors.reason(badBody));
        return true;
    }

    /** Closes the connection unanswered (or with its answer cut) and completes the callback. */
    private void abort(Throwable e) {
        try {
            request.getConnectionMetaData().getConnection().getEndPoint().close(e);
        } finally {
            end();
            callback.failed(e);
        }
    }

    private void end() {
        if (tracked != null) {
            guard.requestFinished(tracked);
        }
    }
}
