package dev.outlierlab.tune;

import dev.outlierlab.config.scenario.GrpcScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;

/** grpc-java's outlier detection in {@code tune}: a scenario's {@code grpc:} block, for a gRPC service config. */
public final class GrpcTune implements Profile, TuneFrom, TuneTargets {
    @Override
    public String name() {
        return GrpcScenarioFormat.NAME;
    }

    @Override
    public List<Target> targets() {
        return List.of(GrpcTarget.INSTANCE);
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled p, String source) {
        Scenario s = p.envoy().scenario();
        Integer hosts = p.envoy().hostsGiven() ? s.cluster().size() : null;
        GrpcOutlierConfig g = p.grpc().config();
        return new CurrentSettings(
                s.name(),
                source,
                GrpcTarget.INSTANCE,
                ProfileFiles.asEnvoyFields(g),
                0,
                hosts,
                s.traffic().rps(),
                null,
                new GrpcRun(g),
                s.healthChecks());
    }
}
