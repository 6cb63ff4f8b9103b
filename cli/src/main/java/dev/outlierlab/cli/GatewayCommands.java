package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.GatewayScenarioFormat;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.report.GatewayResultJson;
import dev.outlierlab.report.GatewayTextReport;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.TuneTrace;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayProgress;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.gateway.GatewaySummary;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.GatewayRun;
import dev.outlierlab.tune.RunProfile;
import java.util.List;
import java.util.Map;

/** The gateway profile in {@code run}: its own simulation, report and stage records; a column of its defaults. */
public final class GatewayCommands
        implements Profile,
                ProfileRunner,
                ComparisonColumn,
                SweepRows,
                ProxyPool,
                ScenarioExport,
                TuneStart,
                TuneTrace {
    @Override
    public String name() {
        return GatewayScenarioFormat.NAME;
    }

    @Override
    public void refuse(RunRequest request, ScenarioReader.Profiled profiled) {
        if (request.optionsGiven().stream()
                .anyMatch(o -> o.startsWith("--trace-in") || o.startsWith("--envoy") || o.startsWith("--istio"))) {
            throw new InputException("--trace-in, --envoy and --istio take profile: envoy scenarios; this scenario's "
                    + "profile is gateway");
        }
    }

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request) {
        GatewayScenario gateway = resolved.gateway();
        WorkOptions.checkMemory(gateway, "this run");
        GatewayRunResult result;
        if (request.stagesFile() == null) {
            RunWatcher watcher = request.start(new WorkEstimate(0, 0, 0), GatewayWorkEstimate.of(gateway));
            result = GatewaySimulation.run(gateway, GatewayProgress.of(watcher, gateway));
            request.finish();
        } else {
            request.start(new WorkEstimate(0, 0, 0), GatewayWorkEstimate.of(gateway));
            result = StageFile.write(request.stagesFile(), gateway);
        }
        return request.format().equals("json")
                ? GatewayResultJson.toJson(result)
                : GatewayTextReport.render(result, request.maxEvents());
    }

    @Override
    public ProfileComparison.Column column(ScenarioReader.Profiled given) {
        GatewayScenario g;
        try {
            g = GatewayScenario.withDefaultsOver(given.envoy().scenario());
        } catch (InvalidConfigException e) {
            throw new InputException("--profile gateway: " + e.getMessage());
        }
        return ProfileComparison.column(name(), GatewaySimulation.run(g));
    }

    @Override
    public List<String> notes(ScenarioReader.Profiled given) {
        return List.of(
                "\n  gateway: the gateway profile's defaults (docs/gateway.md) over the same hosts, one process\n");
    }

    @Override
    public List<String> columns() {
        return List.of(
                "ejections", "consecutive", "success rate", "kept all", "would eject", "failed %", "failed % in fault");
    }

    @Override
    public Work work(ScenarioReader.Profiled resolved) {
        WorkOptions.checkMemory(resolved.gateway(), "this sweep");
        return new Work(new WorkEstimate(0, 0, 0), GatewayWorkEstimate.of(resolved.gateway()));
    }

    @Override
    public Row run(ScenarioReader.Profiled resolved, RunWatcher watcher) {
        GatewayScenario scenario = resolved.gateway();
        GatewaySummary s = GatewaySimulation.run(scenario, GatewayProgress.of(watcher, scenario))
                .summary();
        return new Row(
                List.of(
                        Long.toString(s.ejections()),
                        Long.toString(s.consecutiveEjections()),
                        Long.toString(s.successRateEjections()),
                        Long.toString(s.keptAllStages()),
                        Long.toString(s.wouldEjectStages()),
                        Numbers.two(s.requests() == 0 ? 0 : s.failedRequests() * 100.0 / s.requests()),
                        Numbers.two(s.failedPercentDuringFault())),
                GatewayResultJson.summary(new GatewayRunResult(scenario, s, List.of())));
    }

    @Override
    public LivePoolBuilder builder(String name, ScenarioReader.Profiled settings) {
        return LivePoolBuilder.gateway(name, settings.gateway().gateway());
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled resolved) {
        return GatewayScenarioWriter.toMap(resolved.gateway());
    }

    @Override
    public String envoyCluster(ScenarioReader.Profiled resolved) {
        throw new InputException("--to envoy: a profile: gateway scenario has no Envoy cluster; use --to scenario"
                + " to write the gateway scenario with every default filled in");
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled resolved, String source, boolean istio) {
        throw new InputException(source + ": a gateway-profile scenario; tune takes a gateway configuration "
                + "with --from FILE --target gateway");
    }

    /** The gateway's simulation: its text report's decision trace. */
    @Override
    public String trace(RunProfile profile, Scenario scenario, int events) {
        return profile instanceof GatewayRun g
                ? GatewayTextReport.render(GatewaySimulation.run(g.gatewayScenario(scenario)), events)
                : null;
    }
}
