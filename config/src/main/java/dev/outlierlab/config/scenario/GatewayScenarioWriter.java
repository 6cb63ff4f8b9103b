package dev.outlierlab.config.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A gateway scenario as plain maps and lists in the scenario-file format, every default filled in: what
 * {@code run --format json} prints under {@code "scenario"} for {@code profile: gateway}, and what
 * {@link ScenarioReader#readProfiled} reads back to an equal scenario.
 */
public final class GatewayScenarioWriter {
    private GatewayScenarioWriter() {}

    public static Map<String, Object> toMap(GatewayScenario s) {
        Scenario asEnvoy = Scenario.builder()
                .name(s.name())
                .durationNanos(s.durationNanos())
                .seed(s.seed())
                .cluster(new ClusterSpec(s.endpoints(), 0))
                .traffic(s.traffic())
                .faults(s.faults())
                .build();
        Map<String, Object> common = ScenarioWriter.toMap(asEnvoy);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("profile", "gateway");
        m.put("name", common.get("name"));
        m.put("duration", common.get("duration"));
        m.put("seed", common.get("seed"));
        @SuppressWarnings("unchecked")
        Map<String, Object> cluster = new LinkedHashMap<>((Map<String, Object>) common.get("cluster"));
        cluster.remove("panic_threshold");
        m.put("cluster", cluster);
        m.put("traffic", common.get("traffic"));
        m.put("faults", common.get("faults"));
        GatewayConfig g = s.gateway();
        Map<String, Object> gm = new LinkedHashMap<>();
        gm.put("mode", g.mode().configName());
        gm.put("window", Durations.format(g.windowNanos()));
        gm.put("bucket", Durations.format(g.bucketNanos()));
        gm.put("min_requests", g.minRequests());
        gm.put("stdev_factor", g.stdevFactor());
        gm.put("peer_set", g.peerSet().configName());
        gm.put("min_stdev", g.minStdevPercent());
        gm.put("consecutive_failures", g.consecutiveFailures());
        gm.put("ejection_time", Durations.format(g.ejectionTimeNanos()));
        gm.put("processes", g.processes());
        m.put("gateway", gm);
        RoutingConfig r = s.routing();
        Map<String, Object> rm = new LinkedHashMap<>();
        rm.put("strategy", r.strategy().configName());
        rm.put("weights", r.weights());
        rm.put("fallbacks", r.fallbacks());
        m.put("routing", rm);
        return m;
    }
}
