package dev.outlierlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.sim.RunResult;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a run under the gRPC profile: {@link ResultJson}'s fields (scenario, summary, stats, events) with
 * {@code "profile": "grpc"}, the gRPC settings as run under {@code grpc} (snake_case, as in a scenario's
 * {@code grpc:} block) with their origin and notes (and {@code "off"}: each detector that is set but cannot run on
 * the cluster's endpoints, with why, e.g. {@code "success_rate_ejection": "(4 hosts < minimum_hosts 5)"}), and each
 * event's explanation in gRPC's terms.
 */
public final class GrpcResultJson {
    private GrpcResultJson() {}

    public static ObjectNode toTree(RunResult r, GrpcSettings settings) {
        return toTree(r, settings, false);
    }

    /**
     * As {@link #toTree(RunResult, GrpcSettings)}; with {@code charts}, also {@link ResultJson}'s
     * {@code series}, {@code panic_windows}, {@code intervals} (one per sweep) and {@code signals}, for the browser.
     */
    public static ObjectNode toTree(RunResult r, GrpcSettings settings, boolean charts) {
        ObjectNode base = ResultJson.toTree(r, charts, charts);
        ObjectNode root = ResultJson.mapper().createObjectNode();
        root.put("profile", "grpc");
        ObjectNode grpc = (ObjectNode) settingsTree(settings);
        Map<String, String> off = GrpcTextReport.offForTooFewHosts(
                settings.config(), r.scenario().cluster().size());
        if (!off.isEmpty()) {
            ObjectNode o = grpc.putObject("off");
            off.forEach(o::put);
        }
        root.set("grpc", grpc);
        base.fields().forEachRemaining(e -> root.set(e.getKey(), e.getValue()));
        if (root.get("summary") instanceof ObjectNode summary) {
            summary.put("profile", "grpc");
        }
        ArrayNode events = (ArrayNode) root.get("events");
        List<OutlierEvent> list = r.events();
        for (int i = 0; i < events.size(); i++) {
            ((ObjectNode) events.get(i)).put("explanation", GrpcExplainer.explain(list.get(i), settings.config()));
        }
        return root;
    }

    public static String toJson(RunResult r, GrpcSettings settings) {
        return ResultJson.write(toTree(r, settings));
    }

    /** The settings as a scenario's {@code grpc:} block would give them, with origin and notes. */
    public static JsonNode settingsTree(GrpcSettings s) {
        ObjectNode n = blockTree(s.config());
        n.put("origin", s.origin());
        ArrayNode notes = n.putArray("notes");
        s.notes().forEach(notes::add);
        return n;
    }

    /** The settings as a scenario's {@code grpc:} block that reads back to the same configuration. */
    public static ObjectNode blockTree(GrpcOutlierConfig c) {
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("implementation", c.implementation().key());
        n.put("interval", Durations.format(c.intervalNanos()));
        n.put("base_ejection_time", Durations.format(c.baseEjectionTimeNanos()));
        n.put("max_ejection_time", Durations.format(c.maxEjectionTimeNanos()));
        n.put("max_ejection_percent", c.maxEjectionPercent());
        if (c.successRate() != null) {
            n.putObject("success_rate_ejection")
                    .put("stdev_factor", c.successRate().stdevFactor())
                    .put("enforcement_percentage", c.successRate().enforcementPercentage())
                    .put("minimum_hosts", c.successRate().minimumHosts())
                    .put("request_volume", c.successRate().requestVolume());
        }
        if (c.failurePercentage() != null) {
            n.putObject("failure_percentage_ejection")
                    .put("threshold", c.failurePercentage().threshold())
                    .put("enforcement_percentage", c.failurePercentage().enforcementPercentage())
                    .put("minimum_hosts", c.failurePercentage().minimumHosts())
                    .put("request_volume", c.failurePercentage().requestVolume());
        }
        return n;
    }
}
