package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.grpc.XdsNotes;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.report.GrpcResultJson;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.grpc.GrpcProfile;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gRPC profile for the browser, and the same traffic under several profiles. A {@code profile: grpc} run is
 * {@code run --format json}'s answer under gRPC ({@link GrpcResultJson}: the settings as run with their origin and
 * notes, each event explained in gRPC's terms) with the charts' series, a success-rate interval per sweep and the
 * signals, and its {@code scenario} written back with {@code profile: grpc} and the {@code grpc:} block as run, so
 * the page, a link and Export JSON reproduce it. A comparison ({@code POST /api/compare}) runs the scenario's
 * traffic and faults under Envoy (its {@code outlier_detection}), gRPC (its {@code grpc:} block, or
 * {@code outlier_detection} as gRPC's xDS client maps it) and the gateway profile's defaults, as
 * {@code run --profile envoy,grpc,gateway} does, and answers the columns of {@link ProfileComparison} and its table.
 */
final class GrpcLabRun {
    private static final ObjectMapper MAPPER = ResultJson.mapper();

    private GrpcLabRun() {}

    /** A {@code profile: grpc} scenario, admitted by {@code limits}, run with charts. */
    static ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        Scenario scenario = admit(profiled, limits);
        GrpcSettings settings = profiled.grpc();
        RunResult result = new GrpcProfile(settings.config()).run(scenario, RunOptions.CHARTS.watchedBy(watcher));
        ObjectNode tree = GrpcResultJson.toTree(result, settings, true);
        tree.set("scenario", MAPPER.valueToTree(scenarioMap(scenario, settings.config())));
        return tree;
    }

    /**
     * The scenario as a {@code profile: grpc} file gives it: {@code profile} first, then the lab's keys, then the
     * {@code grpc:} block as run (every field written out, so it reads back the same wherever it came from).
     */
    static Map<String, Object> scenarioMap(Scenario scenario, GrpcOutlierConfig config) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("profile", "grpc");
        map.putAll(ScenarioWriter.toMap(scenario));
        map.remove("health_checks"); // written as null by the Envoy writer; a grpc scenario must not name it
        map.put("grpc", MAPPER.convertValue(GrpcResultJson.blockTree(config), Map.class));
        return map;
    }

    /** The scenario's Envoy settings as gRPC's xDS client maps them (grpc-java), as {@code run --profile} does. */
    static GrpcSettings mapped(Scenario scenario) {
        try {
            return XdsNotes.settings(
                    scenario.outlierDetection(),
                    GrpcImplementation.JAVA,
                    "outlier_detection, as gRPC's xDS client maps it");
        } catch (InvalidConfigException e) {
            throw new InputException(e.getMessage());
        }
    }

    /** The lab's limits, and one channel: the gRPC profile models a single client. */
    static Scenario admit(ScenarioReader.Profiled profiled, SimulationLimits limits) {
        Scenario scenario = profiled.envoy().scenario();
        limits.check(scenario);
        long clients = scenario.traffic().clients();
        if (clients > 1) {
            throw ApiException.badRequest(
                    "traffic.clients: " + clients + " is not allowed with the gRPC profile; "
                            + "expected 1: it models one channel (set Callers to 1, or use the Envoy profile for several callers)");
        }
        return scenario;
    }
}
