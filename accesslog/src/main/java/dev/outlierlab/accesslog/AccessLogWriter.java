package dev.outlierlab.accesslog;

import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.sim.RequestSink;
import dev.outlierlab.sim.scenario.FaultResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes a run's synthetic traffic as an access log, one line per request, the way Envoy would have logged it:
 * the host's status with no flag, a timeout as {@code 504 UT}, a connect failure as {@code 503 UF}, an external
 * failure as 500 (what it stands for when origins are not split), and a request with no eligible host as {@code 503 UH} with no upstream host. Requests
 * have zero latency, so {@code DURATION} is 0 and the stream ends when it starts.
 *
 * <p>The start time is written with nanoseconds ({@code %Y-%m-%dT%H:%M:%E9SZ}): the lab sends request {@code i}
 * at {@code floor(i * 1e9 / rps)} ns, which at 600 rps is not a whole millisecond, so Envoy's default
 * millisecond precision would move outcomes across interval ticks and the replay would not be exact. Everything
 * else is Envoy's (or Istio's) default format; the reader takes a fraction of any length. Time zero of the run
 * is {@link #EPOCH_BASE_SECONDS} (2026-01-01T00:00:00Z) unless another start is given (as {@code run --start-time}
 * does, so that the access log and the outlier event log of one run share one clock).
 */
public final class AccessLogWriter implements RequestSink {
    /** 2026-01-01T00:00:00Z: the run's time zero in the log. */
    public static final long EPOCH_BASE_SECONDS = StartTimeFormat.daysFromCivil(2026, 1, 1) * 86_400;

    /** The formats {@code run --access-log-format} writes. */
    public enum Format {
        envoy,
        istio,
        json
    }

    private final Writer out;
    private final Format format;
    private final List<String> hosts;
    private final String cluster;
    private final long startEpochNanos;
    private final StringBuilder sb = new StringBuilder(256);

    public AccessLogWriter(Writer out, Format format, List<String> hosts, String cluster) {
        this(out, format, hosts, cluster, EPOCH_BASE_SECONDS * 1_000_000_000L);
    }

    /**
     * The upstream cluster's name as the log writes it, or null when the format has no cluster field (Envoy's
     * default format): Istio's formats name it as Istio's clusters are named, {@code outbound|80||NAME}.
     */
    public static String upstreamCluster(Format format, String cluster) {
        return format == Format.envoy ? null : "outbound|80||" + cluster;
    }

    /** A writer whose time zero is {@code startEpochNanos} (nanoseconds since 1970-01-01T00:00:00Z). */
    public AccessLogWriter(Writer out, Format format, List<String> hosts, String cluster, long startEpochNanos) {
        this.startEpochNanos = startEpochNanos;
        this.out = out;
        this.format = format;
        this.hosts = hosts;
        this.cluster = cluster;
    }

    @Override
    public void onRequest(long nanos, int host, int code, FaultResult result) {
        String flags = "-";
        int status = code;
        if (host < 0) {
            flags = "UH";
            status = 503;
        } else if (result == FaultResult.TIMEOUT) {
            flags = "UT";
            status = 504;
        } else if (result == FaultResult.CONNECT_FAILED) {
            flags = "UF";
            status = 503;
        } else if (result == FaultResult.RESET) {
            flags = "UR"; // a stream was handed over, then reset: replayed as connect success, then the reset
            status = 503;
        } else if (result == FaultResult.EXT_FAILED) {
            status = RequestResult.EXT_ORIGIN_REQUEST_FAILED.httpCodeWhenNotSplit();
        }
        String upstream = host < 0 ? "-" : hosts.get(host);
        sb.setLength(0);
        switch (format) {
            case envoy -> {
                sb.append('[');
                appendTime(sb, startEpochNanos + nanos);
                sb.append("] \"GET /outlier-lab HTTP/1.1\" ")
                        .append(status)
                        .append(' ')
                        .append(flags)
                        .append(" 0 0 0 - \"-\" \"outlier-lab\" \"-\" \"")
                        .append(cluster)
                        .append("\" \"")
                        .append(upstream)
                        .append("\"\n");
            }
            case istio -> {
                sb.append('[');
                appendTime(sb, startEpochNanos + nanos);
                sb.append("] \"GET /outlier-lab HTTP/1.1\" ")
                        .append(status)
                        .append(' ')
                        .append(flags)
                        .append(' ')
                        .append(host < 0 ? "no_healthy_upstream" : "via_upstream")
                        .append(" - \"-\" 0 0 0 - \"-\" \"outlier-lab\" \"-\" \"")
                        .append(cluster)
                        .append("\" \"")
                        .append(upstream)
                        .append("\" ")
                        .append(upstreamCluster(format, cluster))
                        .append(" - - - - default\n");
            }
            case json -> {
                sb.append("{\"start_time\":\"");
                appendTime(sb, startEpochNanos + nanos);
                sb.append("\",\"response_code\":")
                        .append(status)
                        .append(",\"response_flags\":\"")
                        .append(flags)
                        .append("\",\"duration\":0,\"upstream_host\":\"")
                        .append(upstream)
                        .append("\",\"upstream_cluster\":\"")
                        .append(upstreamCluster(format, cluster))
                        .append("\"}\n");
            }
            default -> throw new IllegalStateException(format.name());
        }
        try {
            out.append(sb);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code epochNanos} since 1970-01-01T00:00:00Z as {@code YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ}. */
    static void appendTime(StringBuilder sb, long epochNanos) {
        long seconds = Math.floorDiv(epochNanos, 1_000_000_000L);
        long frac = Math.floorMod(epochNanos, 1_000_000_000L);
        long days = Math.floorDiv(seconds, 86_400);
        long sod = Math.floorMod(seconds, 86_400);
        long z = days + 719_468;
        long era = (z >= 0 ? z : z - 146_096) / 146_097;
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long y = yoe + era * 400;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long d = doy - (153 * mp + 2) / 5 + 1;
        long m = mp + (mp < 10 ? 3 : -9);
        y += m <= 2 ? 1 : 0;
        sb.append(y).append('-');
        two(sb, m).append('-');
        two(sb, d).append('T');
        two(sb, sod / 3600).append(':');
        two(sb, sod / 60 % 60).append(':');
        two(sb, sod % 60).append('.');
        String f = Long.toString(frac);
        for (int i = f.length(); i < 9; i++) {
            sb.append('0');
        }
        sb.append(f).append('Z');
    }

    private static StringBuilder two(StringBuilder sb, long v) {
        return sb.append(v < 10 ? "0" : "").append(v);
    }
}
