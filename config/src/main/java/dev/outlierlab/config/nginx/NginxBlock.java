package dev.outlierlab.config.nginx;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.Values;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code nginx:} block of a {@code profile: nginx} scenario, read and written: the upstream's directives under
 * their own names. {@code max_fails}, {@code fail_timeout} and {@code weight} apply to every server that does not set
 * its own in {@code servers}; without {@code servers} the servers are the scenario's hosts.
 *
 * <pre>
 * nginx: {max_fails: 3, fail_timeout: 10s, proxy_next_upstream: [error, timeout, http_503], workers: 2, zone: true}
 * </pre>
 *
 * {@code proxy_read_timeout} (60s by default, as nginx's) is what an attempt that times out makes its request wait
 * before the next server is tried.
 *
 * A server of {@code servers} may be a map with its own {@code weight}, {@code max_fails}, {@code fail_timeout},
 * {@code down} and {@code backup} ({@code {address: 10.0.0.3:8080, backup: true}}: tried only when no other server
 * may be).
 */
public final class NginxBlock {
    /** The block's keys. */
    public static final Set<String> KEYS = Set.of(
            "upstream",
            "servers",
            "max_fails",
            "fail_timeout",
            "weight",
            "proxy_next_upstream",
            "proxy_next_upstream_tries",
            "proxy_read_timeout",
            "workers",
            "zone");

    private static final Set<String> SERVER_KEYS =
            Set.of("address", "weight", "max_fails", "fail_timeout", "down", "backup");

    private NginxBlock() {}

    /** The upstream the block describes; {@code hosts} are the scenario's hosts, the servers when none are listed. */
    public static NginxUpstreamConfig read(Located block, List<String> hosts) {
        Values v = new Values();
        Map<String, Located> m = block == null ? Map.of() : v.map(block, "nginx", KEYS);
        String name = v.text(m.get("upstream"), "nginx.upstream", "backend");
        int maxFails =
                (int) v.integer(m.get("max_fails"), "nginx.max_fails", NginxServer.DEFAULT_MAX_FAILS, 0, 1_000_000);
        long failTimeout =
                seconds(v, m.get("fail_timeout"), "nginx.fail_timeout", NginxServer.DEFAULT_FAIL_TIMEOUT_SECONDS);
        int weight = (int) v.integer(m.get("weight"), "nginx.weight", 1, 1, 1_000_000);
        List<NginxServer> servers = new ArrayList<>();
        Located listed = m.get("servers");
        if (listed == null) {
            for (String h : hosts) {
                servers.add(new NginxServer(h, weight, maxFails, failTimeout, false));
            }
        } else {
            List<Located> items = v.list(listed, "nginx.servers");
            for (int i = 0; i < items.size(); i++) {
                Located item = items.get(i);
                String key = "nginx.servers[" + i + "]";
                if (item.value() instanceof Map) {
                    Map<String, Located> s = v.map(item, key, SERVER_KEYS);
                    if (s.get("address") == null) {
                        throw Values.error(item, key + ".address", null, "the server's address, such as 10.0.0.1:8080");
                    }
                    servers.add(v.guard(
                            item,
                            key,
                            () -> new NginxServer(
                                    v.text(s.get("address"), key + ".address", null),
                                    (int) v.integer(s.get("weight"), key + ".weight", weight, 1, 1_000_000),
                                    (int) v.integer(s.get("max_fails"), key + ".max_fails", maxFails, 0, 1_000_000),
                                    seconds(v, s.get("fail_timeout"), key + ".fail_timeout", failTimeout),
                                    v.bool(s.get("down"), key + ".down", false),
                                    v.bool(s.get("backup"), key + ".backup", false))));
                } else {
                    String address = v.text(item, key, null);
                    servers.add(
                            v.guard(item, key, () -> new NginxServer(address, weight, maxFails, failTimeout, false)));
                }
            }
        }
        if (listed != null && !servers.isEmpty() && servers.stream().allMatch(NginxServer::backup)) {
            String at = listed.origin().equals("--set nginx.servers")
                    ? listed.origin()
                    : listed.origin() + ": nginx.servers";
            throw new InputException(at + ": every server is backup; expected " + NginxUpstreamConfig.ONLY_BACKUP);
        }
        Located words = m.get("proxy_next_upstream");
        int mask;
        if (words == null) {
            mask = NextUpstream.defaults().mask();
        } else {
            List<String> list = words.value() instanceof String s
                    ? List.of(s.trim().split("\\s+"))
                    : v.names(words, "nginx.proxy_next_upstream");
            mask = v.guard(words, "nginx.proxy_next_upstream", () -> NextUpstream.parseWords(list));
        }
        int tries =
                (int) v.integer(m.get("proxy_next_upstream_tries"), "nginx.proxy_next_upstream_tries", 0, 0, 1_000_000);
        int workers = (int) v.integer(m.get("workers"), "nginx.workers", 1, 1, NginxUpstreamConfig.MAX_WORKERS);
        boolean zone = v.bool(m.get("zone"), "nginx.zone", false);
        long readTimeout = readTimeout(v, m.get("proxy_read_timeout"));
        return v.guard(
                block,
                "nginx",
                () -> new NginxUpstreamConfig(
                        name, servers, new NextUpstream(mask, tries), workers, zone, readTimeout));
    }

    private static long readTimeout(Values v, Located node) {
        if (node == null) {
            return NginxUpstreamConfig.DEFAULT_READ_TIMEOUT_NANOS;
        }
        long nanos = node.value() instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE
                ? l * Durations.SECOND
                : v.duration(node, "nginx.proxy_read_timeout", 0, true);
        if (nanos % 1_000_000 != 0 || nanos > NginxUpstreamConfig.MAX_READ_TIMEOUT_NANOS) {
            throw Values.error(
                    node,
                    "nginx.proxy_read_timeout",
                    node.value(),
                    "a time in whole milliseconds up to 2147483647ms, such as 60s or 500ms (nginx keeps it in"
                            + " milliseconds)");
        }
        return nanos;
    }

    private static long seconds(Values v, Located node, String key, long fallback) {
        if (node == null) {
            return fallback;
        }
        long nanos = node.value() instanceof Long l ? l * Durations.SECOND : v.duration(node, key, 0, true);
        if (nanos % Durations.SECOND != 0 || nanos / Durations.SECOND > NginxServer.MAX_FAIL_TIMEOUT_SECONDS) {
            throw Values.error(
                    node,
                    key,
                    node.value(),
                    "a whole number of seconds up to a year, such as 10s or 1m (nginx keeps it in seconds)");
        }
        return nanos / Durations.SECOND;
    }

    /**
     * The block of this upstream with every value filled in: the first server's {@code max_fails},
     * {@code fail_timeout} and {@code weight} as the block's, a server's own only where it differs.
     */
    public static Map<String, Object> toMap(NginxUpstreamConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        NginxServer first = c.servers().get(0);
        m.put("upstream", c.name());
        m.put("max_fails", first.maxFails());
        m.put("fail_timeout", first.failTimeoutSeconds() + "s");
        m.put("weight", first.weight());
        List<Object> servers = new ArrayList<>();
        for (NginxServer s : c.servers()) {
            if (s.maxFails() == first.maxFails()
                    && s.failTimeoutSeconds() == first.failTimeoutSeconds()
                    && s.weight() == first.weight()
                    && !s.down()
                    && !s.backup()) {
                servers.add(s.name());
                continue;
            }
            Map<String, Object> own = new LinkedHashMap<>();
            own.put("address", s.name());
            if (s.weight() != first.weight()) {
                own.put("weight", s.weight());
            }
            if (s.maxFails() != first.maxFails()) {
                own.put("max_fails", s.maxFails());
            }
            if (s.failTimeoutSeconds() != first.failTimeoutSeconds()) {
                own.put("fail_timeout", s.failTimeoutSeconds() + "s");
            }
            if (s.down()) {
                own.put("down", true);
            }
            if (s.backup()) {
                own.put("backup", true);
            }
            servers.add(own);
        }
        m.put("servers", servers);
        m.put("proxy_next_upstream", c.nextUpstream().words());
        m.put("proxy_next_upstream_tries", c.nextUpstream().tries());
        m.put("proxy_read_timeout", Durations.format(c.readTimeoutNanos()));
        m.put("workers", c.workers());
        m.put("zone", c.zone());
        return m;
    }
}
