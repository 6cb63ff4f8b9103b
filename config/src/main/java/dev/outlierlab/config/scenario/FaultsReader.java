package dev.outlierlab.config.scenario;

import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scenario's {@code faults} (docs/run.md): which hosts fail from when to when, how often and how (status, result,
 * pattern, latency, a dead or degraded host), each key checked against the cluster and the duration.
 */
final class FaultsReader {
    private static final Set<String> FAULT = Set.of(
            "hosts",
            "start",
            "end",
            "error_rate",
            "status",
            "result",
            "fails_health_check",
            "pattern",
            "burst_length",
            "latency",
            "kind");

    private FaultsReader() {}

    static List<FaultSpec> read(Values v, Located node, ClusterSpec cluster, long duration) {
        List<FaultSpec> faults = new ArrayList<>();
        if (node.value() == null) {
            return faults;
        }
        List<Located> items = v.list(node, "faults");
        for (int i = 0; i < items.size(); i++) {
            String key = "faults[" + i + "]";
            Map<String, Located> f = v.map(items.get(i), key, FAULT);
            Located hostsNode = f.get("hosts");
            List<String> hosts;
            if (hostsNode != null && hostsNode.value() instanceof List) {
                hosts = v.names(hostsNode, key + ".hosts");
            } else if (hostsNode != null && "all".equals(hostsNode.value())) {
                hosts = cluster.hosts();
            } else {
                int n = (int) v.integer(hostsNode, key + ".hosts", 1, 1, cluster.size());
                hosts = cluster.hosts().subList(0, n);
            }
            long start = v.duration(f.get("start"), key + ".start", 0, true);
            long end = v.duration(f.get("end"), key + ".end", duration, true);
            boolean dead = LoadReader.deadFault(v, f, key);
            boolean degraded = LoadReader.degradedFault(v, f, key);
            long ppm = v.ratePpm(f.get("error_rate"), key + ".error_rate", 1_000_000);
            int status = (int) v.integer(f.get("status"), key + ".status", 503, 500, 599);
            FaultResult result = dead ? FaultResult.CONNECT_FAILED : v.result(f.get("result"), key + ".result");
            HealthCheckFailure hc = dead
                    ? HealthCheckFailure.REFUSED
                    : v.healthCheckFailure(f.get("fails_health_check"), key + ".fails_health_check");
            // a dead host fails every request, however failures are spread: its pattern is even, which draws nothing
            FaultPattern pattern = dead ? FaultPattern.EVEN : v.pattern(f.get("pattern"), key + ".pattern");
            Located burstNode = f.get("burst_length");
            if (burstNode != null && pattern != FaultPattern.BURSTS) {
                throw Values.error(
                        burstNode,
                        key + ".burst_length",
                        burstNode.value(),
                        "no burst_length unless pattern is bursts (it is " + pattern.scenarioName() + ")");
            }
            long burst = v.milli(
                    burstNode,
                    key + ".burst_length",
                    FaultSpec.DEFAULT_BURST_LENGTH_MILLI,
                    "a mean number of failures per burst, 1 or more with at most 3 decimals");
            long latency = latency(v, f, key, result);
            Located at = burstNode != null ? burstNode : items.get(i);
            faults.add(v.guard(
                    at,
                    key,
                    () -> FaultSpec.builder()
                            .hosts(hosts)
                            .window(start, end)
                            .errorRatePpm(ppm)
                            .status(status)
                            .result(result)
                            .healthCheckFailure(hc)
                            .pattern(pattern)
                            .burstLengthMilli(burst)
                            .degraded(degraded)
                            .latencyNanos(latency)
                            .build()));
        }
        return faults;
    }

    /**
     * A fault's {@code latency}: how long each request it picks takes until its response headers, such as
     * {@code 1500ms} (absent: at once). A round trip that did not complete ({@code result}) has no response, so the
     * two do not go together.
     */
    private static long latency(Values v, Map<String, Located> f, String key, FaultResult result) {
        Located node = f.get("latency");
        long latency = v.duration(node, key + ".latency", 0, true);
        if (latency > 0 && result != null) {
            throw Values.error(
                    node,
                    key + ".latency",
                    node.value(),
                    "no latency with result: " + result.traceName()
                            + " (a round trip that did not complete has no response); remove one of them");
        }
        return latency;
    }
}
