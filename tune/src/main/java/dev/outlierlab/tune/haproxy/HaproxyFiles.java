package dev.outlierlab.tune.haproxy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import java.util.List;

/**
 * A haproxy.cfg as the lab writes it for a backend without the user's file: {@code defaults} with HTTP mode and
 * timeouts, a frontend that uses the backend, and the backend with {@code option httpchk} and one server line per
 * server. {@code haproxy -c} accepts it.
 */
final class HaproxyFiles {
    private HaproxyFiles() {}

    static String cfg(String backend, List<HaproxyServer> servers) {
        StringBuilder out = new StringBuilder();
        out.append(
                "defaults\n    mode http\n    timeout connect 5s\n    timeout client 30s\n    timeout server 30s\n\n");
        out.append("frontend fe\n    bind 127.0.0.1:8080\n    default_backend ")
                .append(backend)
                .append("\n\n");
        out.append("backend ").append(backend).append('\n');
        out.append("    option httpchk GET /health\n");
        for (HaproxyServer s : servers) {
            out.append("    server ").append(s.name()).append(' ').append(s.address());
            if (s.check()) {
                out.append(" check");
            }
            out.append(" inter ").append(Durations.format(s.interNanos()));
            if (s.fastinterNanos() > 0) {
                out.append(" fastinter ").append(Durations.format(s.fastinterNanos()));
            }
            if (s.downinterNanos() > 0) {
                out.append(" downinter ").append(Durations.format(s.downinterNanos()));
            }
            out.append(" rise ").append(s.rise()).append(" fall ").append(s.fall());
            if (s.observe() != Observe.NONE) {
                out.append(" observe ").append(s.observe().word());
                out.append(" error-limit ").append(s.errorLimit());
                out.append(" on-error ").append(s.onError().word());
            }
            out.append('\n');
        }
        return out.toString();
    }
}
