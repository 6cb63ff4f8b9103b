package dev.outlierlab.engine.nginx;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An nginx upstream as the lab models it: its servers in order, the location's {@code proxy_next_upstream}
 * and {@code proxy_next_upstream_tries}, the number of worker processes and whether the upstream has a
 * {@code zone} (shared memory: one copy of the peers for all workers; without it every worker keeps its own,
 * {@code ngx_http_upstream_init_round_robin} allocating the peers from the configuration pool that each worker
 * inherits at fork, and {@code ngx_http_upstream_zone_copy_peers} moving them into shared memory).
 *
 * @param name         the upstream's name ({@code upstream NAME { ... }})
 * @param servers      the server lines in order (backup ones where they are written), at least one not
 *                     {@code backup}, names distinct
 * @param nextUpstream {@code proxy_next_upstream} and {@code proxy_next_upstream_tries}
 * @param workers      {@code worker_processes}, 1 or more
 * @param zone         whether the upstream has a {@code zone} directive
 * @param readTimeoutNanos the location's {@code proxy_read_timeout}: what an attempt that times out makes its request
 *                     wait before the next server is tried (nginx's default 60 s, {@code ngx_http_proxy_merge_loc_conf}
 *                     in src/http/modules/ngx_http_proxy_module.c), 0 to {@link #MAX_READ_TIMEOUT_NANOS}
 */
public record NginxUpstreamConfig(
        String name,
        List<NginxServer> servers,
        NextUpstream nextUpstream,
        int workers,
        boolean zone,
        long readTimeoutNanos) {
    /** nginx's {@code proxy_read_timeout} when none is set: 60 s. */
    public static final long DEFAULT_READ_TIMEOUT_NANOS = 60_000_000_000L;
    /**
     * The longest {@code proxy_read_timeout} nginx reads: 2147483647 ms ({@code ngx_parse_time} in
     * src/core/ngx_parse.c answers {@code NGX_PARSE_LARGE_TIME} above it for a time in milliseconds).
     */
    public static final long MAX_READ_TIMEOUT_NANOS = 2_147_483_647L * 1_000_000L;

    /** The most worker processes the lab simulates, each with its own copy of the peers. */
    public static final int MAX_WORKERS = 1024;
    /** The most servers one upstream may have in the lab. */
    public static final int MAX_SERVERS = 10_000;
    /**
     * What an upstream of {@code backup} servers only needs: nginx refuses it when it reads the configuration,
     * {@code ngx_http_upstream_init_round_robin} (src/http/ngx_http_upstream_round_robin.c) counting the servers
     * that are not backup and stopping at none with "no servers in upstream".
     */
    public static final String ONLY_BACKUP =
            "at least one server without backup, as nginx refuses an upstream of backup servers only"
                    + " (\"no servers in upstream\")";

    /** An upstream whose location has nginx's default {@code proxy_read_timeout}, 60 s. */
    public NginxUpstreamConfig(
            String name, List<NginxServer> servers, NextUpstream nextUpstream, int workers, boolean zone) {
        this(name, servers, nextUpstream, workers, zone, DEFAULT_READ_TIMEOUT_NANOS);
    }

    public NginxUpstreamConfig {
        if (servers == null || servers.isEmpty()) {
            throw new InvalidConfigException("nginx.upstream", "\"" + name + "\"", "at least one server line");
        }
        if (servers.size() > MAX_SERVERS) {
            throw new InvalidConfigException(
                    "nginx.upstream", servers.size() + " servers", "at most " + MAX_SERVERS + " servers");
        }
        if (servers.stream().allMatch(NginxServer::backup)) {
            throw new InvalidConfigException("nginx.servers", "every server backup", ONLY_BACKUP);
        }
        Set<String> seen = new HashSet<>();
        for (NginxServer s : servers) {
            if (!seen.add(s.name())) {
                throw new InvalidConfigException(
                        "nginx.server",
                        "\"" + s.name() + "\"",
                        "each address once in an upstream (the lab names hosts by address)");
            }
        }
        servers = List.copyOf(servers);
        if (nextUpstream == null) {
            nextUpstream = NextUpstream.defaults();
        }
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new InvalidConfigException(
                    "nginx.worker_processes", Integer.toString(workers), "a whole number from 1 to " + MAX_WORKERS);
        }
        if (readTimeoutNanos < 0 || readTimeoutNanos > MAX_READ_TIMEOUT_NANOS) {
            throw new InvalidConfigException(
                    "nginx.proxy_read_timeout",
                    readTimeoutNanos + " ns",
                    "a time from 0 to 2147483647 ms, as nginx's msec values");
        }
    }

    /** An upstream of these addresses with nginx's defaults, one worker, no zone. */
    public static NginxUpstreamConfig of(String name, List<String> addresses) {
        List<NginxServer> servers = new ArrayList<>();
        for (String a : addresses) {
            servers.add(NginxServer.of(a));
        }
        return new NginxUpstreamConfig(name, servers, NextUpstream.defaults(), 1, false);
    }

    /** The server addresses in the configuration's order, backup servers included where written: the host names. */
    public List<String> hosts() {
        List<String> out = new ArrayList<>(servers.size());
        for (NginxServer s : servers) {
            out.add(s.name());
        }
        return out;
    }

    /** Whether any server is {@code backup}. */
    public boolean hasBackup() {
        return servers.stream().anyMatch(NginxServer::backup);
    }

    /**
     * Whether nginx treats the upstream as one server ({@code peers->single}): one primary server and no backup,
     * whose failures are never counted.
     */
    public boolean single() {
        return servers.size() == 1;
    }

    /** How many independent copies of the peers count failures: 1 with {@code zone}, else one per worker. */
    public int detectors() {
        return zone ? 1 : workers;
    }

    public NginxUpstreamConfig withServers(List<NginxServer> value) {
        return new NginxUpstreamConfig(name, value, nextUpstream, workers, zone, readTimeoutNanos);
    }

    public NginxUpstreamConfig withNextUpstream(NextUpstream value) {
        return new NginxUpstreamConfig(name, servers, value, workers, zone, readTimeoutNanos);
    }

    public NginxUpstreamConfig withWorkers(int value, boolean withZone) {
        return new NginxUpstreamConfig(name, servers, nextUpstream, value, withZone, readTimeoutNanos);
    }

    public NginxUpstreamConfig withReadTimeout(long nanos) {
        return new NginxUpstreamConfig(name, servers, nextUpstream, workers, zone, nanos);
    }
}
