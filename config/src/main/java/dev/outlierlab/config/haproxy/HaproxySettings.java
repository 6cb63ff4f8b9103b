package dev.outlierlab.config.haproxy;

import dev.outlierlab.engine.haproxy.HaproxyServer;
import java.util.List;

/**
 * A HAProxy backend read from a haproxy.cfg, with where its server lines are.
 *
 * @param backend     the backend's (or listen section's) name
 * @param servers     its servers in order, with default-server applied
 * @param serverLines each server's line number (from 1), in the same order
 * @param backendLine the line of the backend (or listen) keyword
 * @param httpCheck   whether the backend has {@code option httpchk} (checks are HTTP, else TCP connects)
 * @param notes       what the lab read but does not model
 * @param text        the file as read
 */
public record HaproxySettings(
        String backend,
        List<HaproxyServer> servers,
        List<Integer> serverLines,
        int backendLine,
        boolean httpCheck,
        List<String> notes,
        String text) {}
