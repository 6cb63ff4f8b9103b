package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.LiveListener;
import dev.outlierlab.live.StageRecord;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes a pool's stage records as JSON lines (gateway-profile.md section 6): time in seconds since the
 * pool started, request, pool, mode, action and the endpoints concerned, one line per record, flushed at
 * once so that a reader can follow the file. A record that cannot be written (a full disk) is counted in
 * {@link #lost()} and the first error kept ({@link #firstError()}); writing never throws into the pool's
 * request path, so the caller reports the loss (the proxy in {@code /stats} and on exit).
 */
public final class StageLog implements LiveListener, AutoCloseable {
    private final BufferedWriter out;
    private final AtomicLong lost = new AtomicLong();
    private volatile IOException firstError;

    public StageLog(Writer out) {
        this.out = new BufferedWriter(out);
    }

    /** One record as a JSON object on one line. */
    public static String json(StageRecord r) {
        StringBuilder sb = new StringBuilder(96);
        sb.append("{\"time\": ")
                .append(String.format(Locale.ROOT, "%.6f", r.timeNanos() / 1e9))
                .append(", \"request\": ")
                .append(r.request())
                .append(", \"pool\": ")
                .append(quote(r.pool()))
                .append(", \"mode\": \"")
                .append(r.mode().configName())
                .append("\", \"action\": \"")
                .append(r.action().outputName())
                .append("\", \"endpoints\": [");
        for (int i = 0; i < r.endpoints().size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(quote(r.endpoints().get(i)));
        }
        return sb.append("]}").toString();
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    @Override
    public synchronized void onStageRequest(StageRecord stage) {
        try {
            out.write(json(stage));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            if (lost.getAndIncrement() == 0) {
                firstError = e;
            }
        }
    }

    /** Records that could not be written. */
    public long lost() {
        return lost.get();
    }

    /** The first write error, or null when every record was written. */
    public IOException firstError() {
        return firstError;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
