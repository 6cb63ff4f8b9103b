package dev.outlierlab.cli;

import dev.outlierlab.config.envoy.EnvoyClusterWriter;
import dev.outlierlab.config.scenario.EnvoyScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.report.TuneTrace;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.EnvoyTarget;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.Target;
import java.util.List;
import java.util.Map;

/**
 * Envoy's outlier detection in the commands: a column of {@code run --profile A,B} and a sweep's rows; its single run is
 * the lab's Envoy report ({@code run} without a runner, as the profile lists
 * {@link Capability#ENVOY_REPORT}).
 */
public final class EnvoyCommands
        implements Profile, ComparisonColumn, SweepRows, ProxyPool, ScenarioExport, TuneStart, TuneTrace {
    @Override
    public String name() {
        return EnvoyScenarioFormat.NAME;
    }

    @Override
    public ProfileComparison.Column column(ScenarioReader.Profiled given) {
        return ProfileComparison.column(name(), Simulation.run(given.envoy().scenario(), RunOptions.DEFAULT));
    }

    @Override
    public List<String> columns() {
        return RUN_SUMMARY_COLUMNS;
    }

    @Override
    public Work work(ScenarioReader.Profiled resolved) {
        // Envoy runs take the event-driven path where it applies
        return new Work(
                WorkEstimate.ofRun(resolved.envoy().scenario(), RunOptions.DEFAULT, false), GatewayWorkEstimate.NONE);
    }

    @Override
    public Row run(ScenarioReader.Profiled resolved, RunWatcher watcher) {
        return Row.of(
                name(),
                Simulation.run(
                        resolved.envoy().scenario(),
                        RunOptions.DEFAULT.keepingEvents(0).watchedBy(watcher)));
    }

    @Override
    public LivePoolBuilder builder(String name, ScenarioReader.Profiled settings) {
        Scenario scenario = settings.envoy().scenario();
        return LivePoolBuilder.envoy(
                name, scenario.outlierDetection(), Math.round(scenario.cluster().panicThresholdPercent()));
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled resolved) {
        return ScenarioWriter.toMap(resolved.envoy().scenario());
    }

    @Override
    public String envoyCluster(ScenarioReader.Profiled resolved) {
        return EnvoyClusterWriter.toYaml(resolved.envoy().scenario());
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled resolved, String source, boolean istio) {
        Scenario s = resolved.envoy().scenario();
        Target target = istio ? EnvoyTarget.ISTIO : EnvoyTarget.ENVOY;
        Integer hosts = resolved.envoy().hostsGiven() ? s.cluster().size() : null;
        return new CurrentSettings(
                s.name(),
                source,
                target,
                s.outlierDetection(),
                s.cluster().panicThresholdPercent(),
                hosts,
                s.traffic().rps(),
                s.envoyVersion(),
                RunProfile.ENVOY,
                s.healthChecks());
    }

    /** Envoy's simulation: the text report's decision trace. */
    @Override
    public String trace(RunProfile profile, Scenario scenario, int events) {
        return profile == RunProfile.ENVOY
                ? TextReport.render(Simulation.run(scenario, RunOptions.DEFAULT.keepingEvents(events)), events, null)
                : null;
    }
}
