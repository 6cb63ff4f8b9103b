package dev.outlierlab.cli.toy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckRule;
import dev.outlierlab.check.CheckRules;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Severity;
import dev.outlierlab.cli.CheckAsClient;
import dev.outlierlab.cli.ProfileRunner;
import dev.outlierlab.cli.RunRequest;
import dev.outlierlab.cli.SweepRows;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.ContractDetector;
import dev.outlierlab.sim.DetectorSimulation;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunTotals;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.web.LabColumn;
import dev.outlierlab.web.LabProfile;
import dev.outlierlab.web.SimulationLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A profile added through the seam only: this package and one line in the test resources'
 * {@code META-INF/services/dev.outlierlab.engine.profile.Profile}. Its scenario is the lab's with a {@code toy:} block
 * ({@code failures}, {@code ejection_seconds}); it runs its {@link ToyDetector} on the simulator's contract path, in
 * {@code run}, {@code sweep}, {@code check --profile toy} and the browser lab's API.
 */
public final class ToyProfile
        implements Profile, ScenarioFormat, ProfileRunner, SweepRows, CheckAsClient, CheckRules, LabProfile {
    static final String NAME = "toy";

    /** The settings of a toy scenario without a {@code toy:} block. */
    static final ToySettings DEFAULTS = new ToySettings(5, 30_000_000_000L);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 900;
    }

    /** Its part in {@code tune} is handed out by {@link ToyTune}. */
    @Override
    public <T> Optional<T> facet(Class<T> kind) {
        return kind.isInstance(this) ? Optional.of(kind.cast(this)) : ToyTune.INSTANCE.facetOf(kind);
    }

    @Override
    public ScenarioReader.Profiled read(Located root) {
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        int failures = 5;
        long seconds = 30;
        Located block = top.get(NAME);
        if (block != null && block.value() instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Located v = (Located) e.getValue();
                long n = whole(v, "toy." + e.getKey());
                switch (String.valueOf(e.getKey())) {
                    case "failures" -> failures = (int) n;
                    case "ejection_seconds" -> seconds = n;
                    default ->
                        throw new InputException(v.origin() + ": toy." + e.getKey() + " is not allowed; expected "
                                + "failures or ejection_seconds");
                }
            }
        }
        ScenarioReader.Loaded lab = ScenarioReader.readLabPart(root, NAME, Set.of(NAME));
        return new ScenarioReader.Profiled(
                Profiles.find(NAME).orElseThrow(), lab, new ToySettings(failures, seconds * 1_000_000_000L));
    }

    private static long whole(Located v, String key) {
        try {
            long n = Long.parseLong(String.valueOf(v.value()));
            if (n >= 1 && n <= 1_000_000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new InputException(v.origin() + ": " + key + ": \"" + v.value() + "\" is not allowed; expected a whole "
                + "number from 1 to 1000000");
    }

    /** The toy's run: its detector over the scenario's hosts, traffic and faults. */
    static RunResult simulate(ScenarioReader.Profiled p, RunOptions options) {
        ToySettings settings = p.settings(ToySettings.class);
        return DetectorSimulation.run(p.envoy().scenario(), options, new ContractDetector() {
            @Override
            public Detector create(Scenario scenario, DetectorListener events) {
                return new ToyDetector(settings, scenario.cluster().hosts(), events);
            }

            @Override
            public RunTotals totals(Detector detector) {
                long n = ((ToyDetector) detector).ejections();
                return new RunTotals(n, n, 0, Map.of("ejections_total", n));
            }
        });
    }

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request) {
        Scenario s = resolved.envoy().scenario();
        RunResult r = simulate(
                resolved, RunOptions.DEFAULT.watchedBy(request.start(WorkEstimate.of(s), GatewayWorkEstimate.NONE)));
        request.finish();
        ObjectNode summary = ResultJson.summaryTree(r);
        if (request.format().equals("json")) {
            ObjectNode root = ResultJson.mapper().createObjectNode();
            root.put("profile", NAME);
            root.set("summary", summary);
            return ResultJson.write(root);
        }
        return "toy: " + s.name() + ", " + summary.get("requests") + " requests, " + summary.get("failed")
                + " failed\n";
    }

    @Override
    public List<String> columns() {
        return RUN_SUMMARY_COLUMNS;
    }

    @Override
    public Work work(ScenarioReader.Profiled resolved) {
        return new Work(
                WorkEstimate.ofRun(resolved.envoy().scenario(), RunOptions.DEFAULT, true), GatewayWorkEstimate.NONE);
    }

    @Override
    public Row run(ScenarioReader.Profiled resolved, RunWatcher watcher) {
        return Row.of(
                NAME, simulate(resolved, RunOptions.DEFAULT.keepingEvents(0).watchedBy(watcher)));
    }

    /** The toy reads a cluster's consecutive_5xx only: one note per cluster that says so, with the number. */
    @Override
    public CheckInputs.Loaded asClient(CheckInputs.Loaded envoy, String implementation) {
        List<Finding> findings = new ArrayList<>(envoy.fileFindings());
        for (CheckTarget t : envoy.targets()) {
            long failures = t.config() == null ? 5 : t.config().consecutive5xx();
            findings.add(new Finding(
                    ToyRule.READS_CONSECUTIVE_ONLY,
                    Severity.NOTE,
                    t.name(),
                    "the toy profile ejects after " + failures + " failures in a row and reads nothing else",
                    Map.of("failures", failures),
                    null,
                    t.file(),
                    t.line(),
                    List.of()));
        }
        return new CheckInputs.Loaded(List.of(), findings);
    }

    @Override
    public List<CheckRule> rules() {
        return List.of(ToyRule.values());
    }

    @Override
    public ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        limits.check(profiled.envoy().scenario());
        ObjectNode root = ResultJson.mapper().createObjectNode();
        root.put("profile", NAME);
        root.set("summary", ResultJson.summaryTree(simulate(profiled, RunOptions.DEFAULT.watchedBy(watcher))));
        return root;
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled profiled) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("profile", NAME);
        map.putAll(ScenarioWriter.toMap(profiled.envoy().scenario()));
        map.remove("outlier_detection");
        map.remove("health_checks");
        ToySettings t = profiled.settings(ToySettings.class);
        map.put(NAME, Map.of("failures", t.failures(), "ejection_seconds", t.ejectionNanos() / 1_000_000_000L));
        return map;
    }

    @Override
    public boolean comparable() {
        return true;
    }

    /** The toy's defaults over the compared scenario's hosts, traffic and faults. */
    @Override
    public Optional<LabColumn> compared(ScenarioReader.Profiled base, SimulationLimits limits) {
        Scenario scenario = base.envoy().scenario();
        limits.check(scenario);
        return Optional.of(watcher -> ProfileComparison.column(
                NAME, ToyTune.simulate(scenario, DEFAULTS, RunOptions.DEFAULT.watchedBy(watcher))));
    }
}
