package dev.outlierlab.tune;

import dev.outlierlab.config.scenario.GrpcScenarioFormat;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.grpc.GrpcProfile;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gRPC profile's simulation ({@link GrpcProfile}: grpc-java's {@code OutlierDetectionLoadBalancer} with these
 * settings, one channel) over the scenario's hosts, traffic and faults.
 */
public record GrpcRun(GrpcOutlierConfig config) implements RunProfile {
    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return TuneRuns.figures(suite, new GrpcProfile(config).run(scenario, RunOptions.DEFAULT));
    }

    /** The scenario with a {@code grpc:} block in place of Envoy's {@code outlier_detection}. */
    @Override
    public Map<String, Object> labScenario(Scenario scenario) {
        Map<String, Object> out = RunProfile.ofProfile(GrpcScenarioFormat.NAME, scenario);
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("interval", Durations.format(config.intervalNanos()));
        block.put("base_ejection_time", Durations.format(config.baseEjectionTimeNanos()));
        block.put("max_ejection_time", Durations.format(config.maxEjectionTimeNanos()));
        block.put("max_ejection_percent", config.maxEjectionPercent());
        if (config.successRate() != null) {
            var sr = config.successRate();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("stdev_factor", sr.stdevFactor());
            m.put("enforcement_percentage", sr.enforcementPercentage());
            m.put("minimum_hosts", sr.minimumHosts());
            m.put("request_volume", sr.requestVolume());
            block.put("success_rate_ejection", m);
        }
        if (config.failurePercentage() != null) {
            var fp = config.failurePercentage();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("threshold", fp.threshold());
            m.put("enforcement_percentage", fp.enforcementPercentage());
            m.put("minimum_hosts", fp.minimumHosts());
            m.put("request_volume", fp.requestVolume());
            block.put("failure_percentage_ejection", m);
        }
        out.put(GrpcScenarioFormat.NAME, block);
        return out;
    }
}
