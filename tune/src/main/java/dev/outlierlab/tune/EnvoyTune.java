package dev.outlierlab.tune;

import dev.outlierlab.config.scenario.EnvoyScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;

/** Envoy's outlier detection in {@code tune}: a scenario's {@code outlier_detection}, for an Envoy cluster. */
public final class EnvoyTune implements Profile, TuneFrom, TuneTargets {
    @Override
    public String name() {
        return EnvoyScenarioFormat.NAME;
    }

    /** An Envoy cluster first, then the control planes' resources that write Envoy's fields. */
    @Override
    public List<Target> targets() {
        return List.of(EnvoyTarget.values());
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled p, String source) {
        Scenario s = p.envoy().scenario();
        Integer hosts = p.envoy().hostsGiven() ? s.cluster().size() : null;
        return new CurrentSettings(
                s.name(),
                source,
                EnvoyTarget.ENVOY,
                s.outlierDetection(),
                s.cluster().panicThresholdPercent(),
                hosts,
                s.traffic().rps(),
                s.envoyVersion(),
                RunProfile.ENVOY,
                s.healthChecks());
    }
}
