package dev.outlierlab.httpserver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers the server gives itself, before or instead of the handler: Jetty's parser refusing a request
 * (a bare CR, a space or NUL in a header name, two {@code Host} headers, a chunk size past its bound, a head
 * over the size limit: 400 or 431, and the connection closed) and the lab's own refusals (two {@code Origin}
 * headers, too many headers, a target that is not a URI). Each is one line of plain text, the status and
 * Jetty's reason with control characters escaped and cut to {@link #SHOWN} characters, never an HTML page or a
 * stack; each 4xx is counted ({@link #malformed()}).
 */
final class ServerErrors extends ErrorHandler {
    /** The most characters of a reason shown. */
    static final int SHOWN = 100;

    private final AtomicLong malformed = new AtomicLong();
    private final int headerBytes;

    ServerErrors(int headerBytes) {
        this.headerBytes = headerBytes;
    }

    long malformed() {
        return malformed.get();
    }

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback)
            throws IOException {
        if (code >= 400 && code < 500) {
            malformed.incrementAndGet();
        }
        String text = line(code, message);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        if (status >= 400 && status < 500) {
            malformed.incrementAndGet();
        }
        fields.put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        return ByteBuffer.wrap(line(status, reason).getBytes(StandardCharsets.UTF_8));
    }

    private String line(int code, String reason) {
        String r = reason == null ? "" : reason;
        if (code == 431 && (r.isEmpty() || r.equals("Request Header Fields Too Large"))) {
            r = "the request line and headers are over " + headerBytes + " bytes";
        }
        return code + " " + shown(r) + "\n";
    }

    /** The reason of a failed read: Jetty's, when its parser refused the bytes. */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpException h && h.getReason() != null) {
                return h.getReason();
            }
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** {@code s} with control and non-ASCII characters escaped, at most {@link #SHOWN} characters then "...". */
    static String shown(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && sb.length() < SHOWN; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.length() >= SHOWN && s.length() > SHOWN ? sb + "..." : sb.toString();
    }
}
