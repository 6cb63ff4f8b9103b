package dev.outlierlab.config.nginx;

import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An nginx upstream read from a configuration, with where its directives are, for findings and for writing
 * tuned values back.
 *
 * @param config       the upstream as the lab models it
 * @param notes        what the lab read but does not model, one sentence each
 * @param upstream     the {@code upstream NAME { }} block
 * @param serverLines  its {@code server} lines, in order, one per host of {@code config}
 * @param location     the {@code location} that passes to it ({@code proxy_pass http://NAME}), or null
 * @param nextUpstream the {@code proxy_next_upstream} in effect there (from the location, server or http), or
 *                     null when nginx's default applies
 * @param nextTries    the {@code proxy_next_upstream_tries} in effect there, or null
 * @param texts        every file read, by path, as read
 * @param readTimeoutNanos the {@code proxy_read_timeout} in effect there (nginx's default 60 s when none is set):
 *                     how long a request waits for a server that does not answer before nginx tries the next
 */
public record NginxSettings(
        NginxUpstreamConfig config,
        List<String> notes,
        ConfDirective upstream,
        List<ConfDirective> serverLines,
        ConfDirective location,
        ConfDirective nextUpstream,
        ConfDirective nextTries,
        Map<Path, String> texts,
        long readTimeoutNanos) {}
