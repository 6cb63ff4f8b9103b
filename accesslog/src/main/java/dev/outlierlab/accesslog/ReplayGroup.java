package dev.outlierlab.accesslog;

import java.util.List;

/**
 * One detector to replay: the lines of one upstream cluster seen by one proxy instance (Envoy keeps a detector
 * per cluster in each proxy), its hosts in order of first appearance, and its span of outcome times.
 */
public record ReplayGroup(
        String cluster, String instance, List<String> hosts, long firstEpochNanos, long lastEpochNanos, long entries) {
    public ReplayGroup {
        hosts = List.copyOf(hosts);
    }

    /** How reports name it: the cluster and instance where the log has them. */
    public String label() {
        String c = cluster.isEmpty() ? "" : "cluster " + cluster;
        String i = instance.isEmpty() ? "" : "instance " + instance;
        return c.isEmpty() && i.isEmpty() ? "the log" : c.isEmpty() ? i : i.isEmpty() ? c : c + ", " + i;
    }
}
