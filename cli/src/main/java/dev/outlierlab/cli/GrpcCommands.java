package dev.outlierlab.cli;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.scenario.GrpcScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.GrpcResultJson;
import dev.outlierlab.report.GrpcTextReport;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.TuneTrace;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.grpc.GrpcProfile;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.GrpcRun;
import dev.outlierlab.tune.RunProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** grpc-java's outlier detection in {@code run}: one channel over the lab's scenario, and its comparison column. */
public final class GrpcCommands
        implements Profile,
                ProfileRunner,
                ComparisonColumn,
                SweepRows,
                ScenarioExport,
                TuneStart,
                CheckAsClient,
                TuneTrace {
    @Override
    public String name() {
        return GrpcScenarioFormat.NAME;
    }

    @Override
    public void refuse(RunRequest request, ScenarioReader.Profiled profiled) {
        if (request.optionsGiven().stream()
                .anyMatch(o -> !o.startsWith("--envoy") && !o.startsWith("--istio") && !o.startsWith("--format"))) {
            throw new InputException(
                    "--trace-in, --access-log, --event-log, --stats, --series and --stages are for one "
                            + "run of profile envoy (or gateway); leave them out with --profile or a profile: grpc scenario");
        }
    }

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request) {
        WorkEstimate estimate = WorkEstimate.of(resolved.envoy().scenario());
        RunOptions options = (request.format().equals("json")
                        ? RunOptions.DEFAULT
                        : RunOptions.DEFAULT.keepingEvents(request.maxEvents()))
                .watchedBy(request.start(estimate, GatewayWorkEstimate.NONE));
        GrpcSettings settings = resolved.grpc();
        RunResult result =
                new GrpcProfile(settings.config()).run(resolved.envoy().scenario(), options);
        request.finish();
        return request.format().equals("json")
                ? GrpcResultJson.toJson(result, settings)
                : GrpcTextReport.render(result, settings, request.maxEvents());
    }

    @Override
    public ProfileComparison.Column column(ScenarioReader.Profiled given) {
        GrpcSettings settings = given.grpc();
        return ProfileComparison.column(
                "grpc (" + settings.config().implementation().label() + ")",
                new GrpcProfile(settings.config()).run(given.envoy().scenario(), RunOptions.DEFAULT));
    }

    @Override
    public List<String> notes(ScenarioReader.Profiled given) {
        GrpcSettings settings = given.grpc();
        List<String> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        b.append("\n  grpc settings: ")
                .append(GrpcTextReport.settings(
                        settings.config(), given.envoy().scenario().cluster().size()))
                .append("\n  from ")
                .append(settings.origin())
                .append('\n');
        for (String note : settings.notes()) {
            b.append("  note: ").append(note).append('\n');
        }
        out.add(b.toString());
        return out;
    }

    @Override
    public List<String> columns() {
        return RUN_SUMMARY_COLUMNS;
    }

    @Override
    public Work work(ScenarioReader.Profiled resolved) {
        // gRPC runs go request by request through GrpcProfile
        return new Work(
                WorkEstimate.ofRun(resolved.envoy().scenario(), RunOptions.DEFAULT, true), GatewayWorkEstimate.NONE);
    }

    @Override
    public Row run(ScenarioReader.Profiled resolved, RunWatcher watcher) {
        return Row.of(
                name(),
                new GrpcProfile(resolved.grpc().config())
                        .run(
                                resolved.envoy().scenario(),
                                RunOptions.DEFAULT.keepingEvents(0).watchedBy(watcher)));
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled resolved) {
        throw notExported();
    }

    @Override
    public String envoyCluster(ScenarioReader.Profiled resolved) {
        throw notExported();
    }

    private static InputException notExported() {
        return new InputException("export: gRPC's settings (a profile: grpc scenario, --service-config or "
                + "--grpc-implementation) are not an Envoy cluster or an Envoy scenario; run them with run");
    }

    @Override
    public CurrentSettings current(ScenarioReader.Profiled resolved, String source, boolean istio) {
        throw new InputException(source + ": gRPC's settings (a profile: grpc scenario, --service-config or "
                + "--grpc-implementation); tune takes a gRPC service config with --from FILE --target grpc");
    }

    @Override
    public CheckInputs.Loaded asClient(CheckInputs.Loaded envoy, String implementation) {
        return GrpcCheckInputs.asGrpcClient(envoy, GrpcCheckInputs.implementation(implementation));
    }

    /** The gRPC profile's simulation: its text report's decision trace. */
    @Override
    public String trace(RunProfile profile, Scenario scenario, int events) {
        if (!(profile instanceof GrpcRun g)) {
            return null;
        }
        return GrpcTextReport.render(
                new GrpcProfile(g.config()).run(scenario, RunOptions.DEFAULT.keepingEvents(events)),
                new GrpcSettings(g.config(), "the recommendation", List.of()),
                events);
    }
}
