package dev.outlierlab.tune.nginx;

import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;

/**
 * An nginx.conf as the lab writes it for an upstream without the user's file: {@code worker_processes}, the upstream
 * with its {@code zone} and server lines, and one {@code location} that passes to it with its
 * {@code proxy_next_upstream} (and {@code proxy_next_upstream_tries} when set). {@code nginx -t} accepts it.
 */
final class NginxFiles {
    private NginxFiles() {}

    static String conf(NginxUpstreamConfig c) {
        StringBuilder out = new StringBuilder();
        out.append("worker_processes ").append(c.workers()).append(";\n");
        out.append("events { }\n");
        out.append("http {\n");
        out.append("    upstream ").append(c.name()).append(" {\n");
        if (c.zone()) {
            out.append("        zone ").append(c.name()).append(" 64k;\n");
        }
        for (NginxServer s : c.servers()) {
            out.append("        server ").append(s.name());
            if (s.weight() != 1) {
                out.append(" weight=").append(s.weight());
            }
            out.append(" max_fails=").append(s.maxFails());
            out.append(" fail_timeout=").append(s.failTimeoutSeconds()).append('s');
            if (s.down()) {
                out.append(" down");
            }
            out.append(";\n");
        }
        out.append("    }\n");
        out.append("    server {\n");
        out.append("        listen 127.0.0.1:8080;\n");
        out.append("        location / {\n");
        out.append("            proxy_pass http://").append(c.name()).append(";\n");
        out.append("            proxy_next_upstream ")
                .append(String.join(" ", c.nextUpstream().words()))
                .append(";\n");
        if (c.nextUpstream().tries() > 0) {
            out.append("            proxy_next_upstream_tries ")
                    .append(c.nextUpstream().tries())
                    .append(";\n");
        }
        out.append("        }\n");
        out.append("    }\n");
        out.append("}\n");
        return out.toString();
    }
}
