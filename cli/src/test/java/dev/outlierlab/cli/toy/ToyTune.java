package dev.outlierlab.cli.toy;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.cli.TuneStart;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.report.TuneTrace;
import dev.outlierlab.sim.ContractDetector;
import dev.outlierlab.sim.DetectorSimulation;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunTotals;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneFrom;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.tune.TuneRuns;
import dev.outlierlab.tune.TuneTargets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The toy profile in {@code tune}: its one target (a scenario's {@code toy:} block, read back by the toy's own
 * reader), its search (failures in a row and the ejection time), its simulation (the {@link ToyDetector} on the
 * simulator's contract path) and its starting settings from a toy scenario, in {@code --from} or run's inputs. The
 * search's shared vocabulary carries the toy's two numbers in {@code consecutive_5xx} and {@code base_ejection_time}.
 */
final class ToyTune implements Target, TuneTargets, TuneFrom, TuneStart, TuneTrace {
    static final ToyTune INSTANCE = new ToyTune();

    private ToyTune() {}

    /** The toy's simulation with these settings. */
    record ToyRun(ToySettings settings) implements RunProfile {
        @Override
        public RunFigures figures(SuiteScenario suite, Scenario scenario) {
            return TuneRuns.figures(suite, simulate(scenario, settings, RunOptions.DEFAULT));
        }

        @Override
        public Map<String, Object> labScenario(Scenario scenario) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("profile", ToyProfile.NAME);
            map.putAll(ScenarioWriter.toMap(scenario));
            map.remove("outlier_detection");
            map.remove("health_checks");
            map.put(ToyProfile.NAME, Map.of("failures", settings.failures(), "ejection_seconds", seconds(settings)));
            return map;
        }
    }

    static RunResult simulate(Scenario scenario, ToySettings settings, RunOptions options) {
        return DetectorSimulation.run(scenario, options, new ContractDetector() {
            @Override
            public Detector create(Scenario s, DetectorListener events) {
                return new ToyDetector(settings, s.cluster().hosts(), events);
            }

            @Override
            public RunTotals totals(Detector detector) {
                long n = ((ToyDetector) detector).ejections();
                return new RunTotals(n, n, 0, Map.of("ejections_total", n));
            }
        });
    }

    <T> Optional<T> facetOf(Class<T> kind) {
        return kind.isInstance(this) ? Optional.of(kind.cast(this)) : Optional.empty();
    }

    @Override
    public List<Target> targets() {
        return List.of(this);
    }

    @Override
    public String flag() {
        return ToyProfile.NAME;
    }

    @Override
    public String description() {
        return "a toy scenario block";
    }

    @Override
    public Set<Can> can() {
        return Set.of(Can.CONSECUTIVE);
    }

    @Override
    public Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current,
            EnvoyVersion version) {
        String text = "profile: toy\ntoy:\n  failures: " + s.consecutive5xx() + "\n  ejection_seconds: "
                + s.baseEjectionTimeNanos() / Durations.SECOND + "\n";
        ToySettings read =
                ScenarioReader.readProfiled(text, "tune:toy", List.of()).settings(ToySettings.class);
        return new Written(text, fields(read), 0, new ToyRun(read));
    }

    /** Failures 1, 2, 3, 5, 10 or 20 in a row; out for the current time, 10 s, 30 s or 60 s. */
    @Override
    public List<Setting> candidates(TuneRequest req) {
        Setting current = req.currentSetting();
        Set<Setting> out = new LinkedHashSet<>();
        for (long failures : new long[] {1, 2, 3, 5, 10, 20}) {
            for (long seconds : new long[] {current.baseEjectionTimeNanos() / Durations.SECOND, 10, 30, 60}) {
                out.add(Setting.of(fields(new ToySettings((int) failures, seconds * Durations.SECOND))));
            }
        }
        out.remove(current);
        return new ArrayList<>(out);
    }

    @Override
    public CurrentSettings defaults(String name, int hosts) {
        return settings(name, null, new ToySettings(5, 30 * Durations.SECOND), null, null);
    }

    @Override
    public String defaultsLabel() {
        return "the toy's defaults";
    }

    @Override
    public String engineLabel(EnvoyVersion version) {
        return "(toy)";
    }

    @Override
    public String healthChecksNotRun() {
        return "the toy has no health checker";
    }

    @Override
    public CheckInputs.Loaded check(String text) {
        return new CheckInputs.Loaded(List.of(), List.of());
    }

    @Override
    public List<String> detectors(TuneRequest req) {
        Setting s = req.currentSetting();
        return List.of("the toy ejects after " + s.consecutive5xx() + " failures in a row for "
                + Durations.format(s.baseEjectionTimeNanos()));
    }

    @Override
    public List<String> changes(Setting a, Setting b, int hosts) {
        return List.of(
                "ejects after " + b.consecutive5xx() + " failures in a row (was " + a.consecutive5xx() + ")",
                "for " + Durations.format(b.baseEjectionTimeNanos()) + " (was "
                        + Durations.format(a.baseEjectionTimeNanos()) + ")");
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled p, String source) {
        Scenario s = p.envoy().scenario();
        return settings(
                s.name(),
                source,
                p.settings(ToySettings.class),
                p.envoy().hostsGiven() ? s.cluster().size() : null,
                s.traffic().rps());
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled resolved, String source, boolean istio) {
        return current(resolved, source);
    }

    @Override
    public String trace(RunProfile profile, Scenario scenario, int events) {
        if (!(profile instanceof ToyRun t)) {
            return null;
        }
        RunResult r = simulate(scenario, t.settings(), RunOptions.DEFAULT);
        return "toy: " + r.summary().requests() + " requests, " + r.summary().failed() + " failed\n";
    }

    private CurrentSettings settings(String name, String source, ToySettings t, Integer hosts, Long rps) {
        return new CurrentSettings(name, source, this, fields(t), 0, hosts, rps, null, new ToyRun(t), null);
    }

    /** The toy's two numbers in the search's shared vocabulary. */
    private static OutlierDetectionConfig fields(ToySettings t) {
        return OutlierDetectionConfig.defaults().toBuilder()
                .set(OutlierSetting.CONSECUTIVE_5XX, t.failures())
                .set(OutlierSetting.BASE_EJECTION_TIME, t.ejectionNanos())
                .build();
    }

    private static long seconds(ToySettings t) {
        return t.ejectionNanos() / Durations.SECOND;
    }
}
