package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The upstream cluster: its hosts in order, and Envoy's {@code healthy_panic_threshold} in percent (0
 * disables panic mode).
 */
public record ClusterSpec(List<String> hosts, double panicThresholdPercent) {
    /** More hosts than this would make a run's per-host output unreadable and its memory unbounded. */
    public static final int MAX_HOSTS = 100_000;

    public ClusterSpec {
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty() || hosts.size() > MAX_HOSTS) {
            throw new InvalidConfigException(
                    "cluster.hosts", Integer.toString(hosts.size()), "from 1 to " + MAX_HOSTS + " hosts");
        }
        HashSet<String> seen = new HashSet<>();
        for (String h : hosts) {
            if (h == null || h.isBlank()) {
                throw new InvalidConfigException("cluster.hosts", "\"" + h + "\"", "non-empty host names");
            }
            if (!seen.add(h)) {
                throw new InvalidConfigException("cluster.hosts", h, "distinct host names (this one repeats)");
            }
        }
        if (!(panicThresholdPercent >= 0 && panicThresholdPercent <= 100)) {
            throw new InvalidConfigException(
                    "cluster.panic_threshold",
                    Double.toString(panicThresholdPercent),
                    "a percentage from 0 to 100 (0 disables panic mode)");
        }
    }

    /** Hosts named {@code host-0} .. {@code host-(n-1)}. */
    public static ClusterSpec ofCount(int count, double panicThresholdPercent) {
        if (count < 1 || count > MAX_HOSTS) {
            throw new InvalidConfigException(
                    "cluster.hosts", Integer.toString(count), "from 1 to " + MAX_HOSTS + " hosts");
        }
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add("host-" + i);
        }
        return new ClusterSpec(names, panicThresholdPercent);
    }

    public int size() {
        return hosts.size();
    }
}
