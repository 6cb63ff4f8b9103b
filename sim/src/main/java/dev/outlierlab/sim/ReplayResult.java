package dev.outlierlab.sim;

import java.util.List;

/**
 * A replay's result: the run (decisions, stats, summary) and, per host in host order, its traffic and the part
 * of it that arrived while the host was ejected.
 */
public record ReplayResult(RunResult run, List<HostTraffic> hosts) {
    public ReplayResult {
        hosts = List.copyOf(hosts);
    }

    /** Sum over hosts of the requests that arrived while their host was ejected. */
    public long requestsWhileEjected() {
        return hosts.stream().mapToLong(HostTraffic::requestsWhileEjected).sum();
    }

    /** Sum over hosts of the failures that arrived while their host was ejected. */
    public long failedWhileEjected() {
        return hosts.stream().mapToLong(HostTraffic::failedWhileEjected).sum();
    }
}
