package dev.outlierlab.config.haproxy;

import dev.outlierlab.config.scenario.Values;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import dev.outlierlab.engine.haproxy.OnError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code haproxy:} block of a {@code profile: haproxy} scenario, read and written: a backend's server options
 * under their own names ({@code error-limit} and {@code on-error} spelled {@code error_limit} and {@code on_error}).
 * The options apply to every server that does not set its own in {@code servers}; without {@code servers} the servers
 * are the scenario's hosts, named {@code s1}, {@code s2}, ...
 *
 * <pre>
 * haproxy: {check: true, observe: layer7, error_limit: 10, on_error: mark-down, inter: 2s, rise: 2, fall: 3}
 * </pre>
 */
public final class HaproxyBlock {
    private static final Set<String> OPTIONS =
            Set.of("check", "observe", "error_limit", "on_error", "inter", "fastinter", "downinter", "rise", "fall");

    /** The block's keys. */
    public static final Set<String> KEYS = union(OPTIONS, Set.of("backend", "servers"));

    private static final Set<String> SERVER_KEYS = union(OPTIONS, Set.of("name", "address"));

    private HaproxyBlock() {}

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    /** The backend's name in the block, {@code app} by default. */
    public static String backend(Located block) {
        Values v = new Values();
        Map<String, Located> m = block == null ? Map.of() : v.map(block, "haproxy", KEYS);
        return v.text(m.get("backend"), "haproxy.backend", "app");
    }

    /** The servers the block describes; {@code hosts} are the scenario's hosts, the servers when none are listed. */
    public static List<HaproxyServer> read(Located block, List<String> hosts) {
        Values v = new Values();
        Map<String, Located> m = block == null ? Map.of() : v.map(block, "haproxy", KEYS);
        HaproxyServer base = server(v, m, "haproxy", HaproxyServer.checked("s1", "base"));
        List<HaproxyServer> out = new ArrayList<>();
        Located listed = m.get("servers");
        if (listed == null) {
            for (int i = 0; i < hosts.size(); i++) {
                out.add(rename(base, "s" + (i + 1), hosts.get(i)));
            }
            return out;
        }
        List<Located> items = v.list(listed, "haproxy.servers");
        if (items.isEmpty()) {
            throw Values.errorShown(listed, "haproxy.servers", "[]", "at least one server, such as 10.0.0.1:8080");
        }
        for (int i = 0; i < items.size(); i++) {
            Located item = items.get(i);
            String key = "haproxy.servers[" + i + "]";
            if (item.value() instanceof Map) {
                Map<String, Located> s = v.map(item, key, SERVER_KEYS);
                if (s.get("address") == null) {
                    throw Values.error(item, key + ".address", null, "the server's address, such as 10.0.0.1:8080");
                }
                String name = v.text(s.get("name"), key + ".name", "s" + (i + 1));
                String address = v.text(s.get("address"), key + ".address", null);
                out.add(server(v, s, key, rename(base, name, address)));
            } else {
                String address = v.text(item, key, null);
                String name = "s" + (i + 1);
                out.add(v.guard(item, key, () -> rename(base, name, address)));
            }
        }
        return out;
    }

    private static HaproxyServer rename(HaproxyServer s, String name, String address) {
        return new HaproxyServer(
                name,
                address,
                s.check(),
                s.observe(),
                s.errorLimit(),
                s.onError(),
                s.interNanos(),
                s.fastinterNanos(),
                s.downinterNanos(),
                s.rise(),
                s.fall());
    }

    private static HaproxyServer server(Values v, Map<String, Located> m, String key, HaproxyServer d) {
        Located observeNode = m.get("observe");
        String observeWord = v.text(observeNode, key + ".observe", d.observe().word());
        Observe observe = null;
        for (Observe o : Observe.values()) {
            if (o.word().equals(observeWord)) {
                observe = o;
            }
        }
        if (observe == null) {
            throw Values.error(observeNode, key + ".observe", observeWord, "layer4, layer7 or none");
        }
        Located onErrorNode = m.get("on_error");
        OnError onError =
                OnError.of(v.text(onErrorNode, key + ".on_error", d.onError().word()));
        if (onError == null) {
            throw Values.error(
                    onErrorNode,
                    key + ".on_error",
                    onErrorNode.value(),
                    "fastinter, fail-check, sudden-death or mark-down");
        }
        Observe o = observe;
        Located at = m.isEmpty() ? null : m.values().iterator().next();
        return v.guard(
                at,
                key,
                () -> new HaproxyServer(
                        d.name(),
                        d.address(),
                        v.bool(m.get("check"), key + ".check", d.check()),
                        o,
                        (int) v.integer(m.get("error_limit"), key + ".error_limit", d.errorLimit(), 1, 1_000_000),
                        onError,
                        v.duration(m.get("inter"), key + ".inter", d.interNanos(), false),
                        v.duration(m.get("fastinter"), key + ".fastinter", d.fastinterNanos(), true),
                        v.duration(m.get("downinter"), key + ".downinter", d.downinterNanos(), true),
                        (int) v.integer(m.get("rise"), key + ".rise", d.rise(), 1, 1000),
                        (int) v.integer(m.get("fall"), key + ".fall", d.fall(), 1, 1000)));
    }

    /**
     * The block of this backend with every value filled in: the first server's options as the block's, a server's own
     * only where they differ.
     */
    public static Map<String, Object> toMap(String backend, List<HaproxyServer> servers) {
        Map<String, Object> m = new LinkedHashMap<>();
        HaproxyServer first = servers.get(0);
        m.put("backend", backend);
        m.putAll(options(first, null));
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            HaproxyServer s = servers.get(i);
            Map<String, Object> own = options(s, first);
            if (own.isEmpty() && s.name().equals("s" + (i + 1))) {
                list.add(s.address());
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", s.name());
            entry.put("address", s.address());
            entry.putAll(own);
            list.add(entry);
        }
        m.put("servers", list);
        return m;
    }

    /** A server's options, or only those that differ from {@code base}'s when it is given. */
    private static Map<String, Object> options(HaproxyServer s, HaproxyServer base) {
        Map<String, Object> m = new LinkedHashMap<>();
        put(m, "check", s.check(), base == null ? null : base.check());
        put(
                m,
                "observe",
                s.observe().word(),
                base == null ? null : base.observe().word());
        put(m, "error_limit", s.errorLimit(), base == null ? null : base.errorLimit());
        put(
                m,
                "on_error",
                s.onError().word(),
                base == null ? null : base.onError().word());
        put(m, "inter", Durations.format(s.interNanos()), base == null ? null : Durations.format(base.interNanos()));
        put(
                m,
                "fastinter",
                Durations.format(s.fastinterNanos()),
                base == null ? null : Durations.format(base.fastinterNanos()));
        put(
                m,
                "downinter",
                Durations.format(s.downinterNanos()),
                base == null ? null : Durations.format(base.downinterNanos()));
        put(m, "rise", s.rise(), base == null ? null : base.rise());
        put(m, "fall", s.fall(), base == null ? null : base.fall());
        return m;
    }

    private static void put(Map<String, Object> m, String key, Object value, Object base) {
        if (!value.equals(base)) {
            m.put(key, value);
        }
    }
}
