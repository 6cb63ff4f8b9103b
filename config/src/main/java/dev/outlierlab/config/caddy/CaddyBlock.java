package dev.outlierlab.config.caddy;

import dev.outlierlab.config.scenario.Values;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code caddy:} block of a {@code profile: caddy} scenario, read and written: a {@code reverse_proxy}'s
 * subdirectives under their Caddyfile names. Without {@code upstreams} the upstreams are the scenario's hosts.
 *
 * <pre>
 * caddy: {fail_duration: 30s, max_fails: 3, unhealthy_status: [5xx], lb_try_duration: 5s}
 * </pre>
 *
 * <p>{@code response_header_timeout} is the http transport's ({@code transport http} in a Caddyfile); it is written
 * only when set.
 */
public final class CaddyBlock {
    /** The block's keys. */
    public static final Set<String> KEYS = Set.of(
            "upstreams",
            "fail_duration",
            "max_fails",
            "unhealthy_status",
            "unhealthy_latency",
            "lb_try_duration",
            "lb_try_interval",
            "lb_retries",
            "lb_policy",
            "response_header_timeout");

    private CaddyBlock() {}

    /** The handler the block describes; {@code hosts} are the scenario's hosts, the upstreams when none are listed. */
    public static CaddyPassiveConfig read(Located block, List<String> hosts) {
        Values v = new Values();
        Map<String, Located> m = block == null ? Map.of() : v.map(block, "caddy", KEYS);
        List<String> upstreams = m.get("upstreams") == null ? hosts : v.names(m.get("upstreams"), "caddy.upstreams");
        long failDuration = v.duration(m.get("fail_duration"), "caddy.fail_duration", 0, true);
        int maxFails = (int) v.integer(m.get("max_fails"), "caddy.max_fails", 0, 0, 1_000_000);
        List<Integer> statuses = new ArrayList<>();
        Located statusNode = m.get("unhealthy_status");
        if (statusNode != null) {
            List<Located> items = statusNode.value() instanceof List
                    ? v.list(statusNode, "caddy.unhealthy_status")
                    : List.of(statusNode);
            for (Located item : items) {
                statuses.add(status(item));
            }
        }
        long latency = v.duration(m.get("unhealthy_latency"), "caddy.unhealthy_latency", 0, true);
        long tryDuration = v.duration(m.get("lb_try_duration"), "caddy.lb_try_duration", 0, true);
        long tryInterval = v.duration(m.get("lb_try_interval"), "caddy.lb_try_interval", 0, true);
        int retries = (int) v.integer(m.get("lb_retries"), "caddy.lb_retries", 0, 0, 1000);
        long headerTimeout = v.duration(m.get("response_header_timeout"), "caddy.response_header_timeout", 0, true);
        Located policyNode = m.get("lb_policy");
        String word = v.text(policyNode, "caddy.lb_policy", CaddySelection.Policy.RANDOM.word());
        CaddySelection.Policy policy = CaddySelection.Policy.of(word);
        if (policy == null) {
            throw Values.error(policyNode, "caddy.lb_policy", word, "random, first or round_robin");
        }
        return v.guard(
                block,
                "caddy",
                () -> new CaddyPassiveConfig(
                        upstreams,
                        failDuration,
                        maxFails,
                        statuses,
                        latency,
                        tryDuration,
                        tryInterval,
                        retries,
                        policy,
                        headerTimeout));
    }

    private static int status(Located item) {
        String text = String.valueOf(item.value());
        if (text.length() == 3 && text.endsWith("xx") && text.charAt(0) >= '1' && text.charAt(0) <= '5') {
            return text.charAt(0) - '0';
        }
        if (item.value() instanceof Long l && l >= 100 && l <= 599) {
            return l.intValue();
        }
        throw Values.error(item, "caddy.unhealthy_status", item.value(), "statuses such as 503 or classes such as 5xx");
    }

    /** The block of this handler with every value filled in. */
    public static Map<String, Object> toMap(CaddyPassiveConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("upstreams", c.upstreams());
        m.put("fail_duration", Durations.format(c.failDurationNanos()));
        m.put("max_fails", c.maxFails());
        List<Object> statuses = new ArrayList<>();
        for (int s : c.unhealthyStatus()) {
            statuses.add(s < 10 ? s + "xx" : s);
        }
        m.put("unhealthy_status", statuses);
        m.put("unhealthy_latency", Durations.format(c.unhealthyLatencyNanos()));
        m.put("lb_try_duration", Durations.format(c.tryDurationNanos()));
        m.put("lb_try_interval", Durations.format(c.tryIntervalNanos()));
        m.put("lb_retries", c.retries());
        m.put("lb_policy", c.policy().word());
        if (c.responseHeaderTimeoutNanos() > 0) { // the transport's; none by default
            m.put("response_header_timeout", Durations.format(c.responseHeaderTimeoutNanos()));
        }
        return m;
    }
}
