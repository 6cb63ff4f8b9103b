package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.GatewayComparisons;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;

/**
 * The gateway profile's controls for the page, defined once like {@link LabControls}: each one's group,
 * label, unit, scenario key, range, choices and one-line explanation (docs/gateway.md). With
 * the gateway's default scenario and the presets (the {@link GatewayComparisons}, the statements of docs/gateway-comparisons.md), they form the {@code gateway} part of {@code GET /api/settings}, so the page holds no copy of
 * a default.
 */
final class GatewayControls {
    /**
     * One control.
     *
     * @param kind    {@code count}, {@code decimal}, {@code seconds} (a duration edited in seconds),
     *                {@code fault_hosts} (the first fault's endpoint count, 0 for none), {@code choice} (one of
     *                {@code options}) or {@code weights} (whole numbers, one per endpoint, comma-separated)
     * @param options for a choice, the values allowed; empty otherwise
     */
    record Control(
            String group,
            String id,
            String label,
            String unit,
            String path,
            String kind,
            double min,
            double max,
            double step,
            String description,
            List<String> options) {}

    private static final String G = "gateway.";

    private GatewayControls() {}

    static List<Control> controls(SimulationLimits limits) {
        return List.of(
                number(
                        "Endpoints and traffic",
                        "gw_hosts",
                        "Endpoints",
                        "endpoints",
                        "cluster.hosts",
                        "count",
                        1,
                        limits.maxHosts(),
                        "Providers or replicas serving the same model, in routing order; named host-0, host-1, ... unless the scenario names them."),
                number(
                        "Endpoints and traffic",
                        "gw_rps",
                        "Requests per second",
                        "req/s",
                        "traffic.rps",
                        "count",
                        1,
                        TrafficSpec.MAX_RPS,
                        "Requests per second to the gateway, sent evenly spaced; request i goes to process i mod processes."),
                number(
                        "Endpoints and traffic",
                        "gw_duration",
                        "Duration",
                        "s",
                        "duration",
                        "seconds",
                        0.001,
                        86_400,
                        "Simulated time."),
                number(
                        "Fault",
                        "gw_faulty_hosts",
                        "Faulty endpoints",
                        "endpoints",
                        "faults[0].hosts",
                        "fault_hosts",
                        0,
                        limits.maxHosts(),
                        "How many endpoints fail (the first N in routing order); 0 for no fault."),
                number(
                        "Fault",
                        "gw_error_rate",
                        "Error rate",
                        "%",
                        "faults[0].error_rate",
                        "decimal",
                        0,
                        100,
                        "Share of a faulty endpoint's attempts that fail with HTTP 503, spread evenly (33 % is never 2 in a row)."),
                number(
                        "Fault",
                        "gw_fault_start",
                        "Fault start",
                        "s",
                        "faults[0].start",
                        "seconds",
                        0,
                        86_400,
                        "When the faulty endpoints start failing."),
                number(
                        "Fault",
                        "gw_fault_end",
                        "Fault end",
                        "s",
                        "faults[0].end",
                        "seconds",
                        0,
                        86_400,
                        "When they recover; the fault is active in [start, end)."),
                choice(
                        "Gateway stage",
                        "gw_mode",
                        "Mode",
                        G + "mode",
                        List.of("off", "shadow", "prod"),
                        "off: outcomes not recorded; shadow: the detector runs but removes nothing (virtual ejections, would_eject); prod: ejected endpoints leave the candidate list."),
                number(
                        "Gateway stage",
                        "gw_window",
                        "Window",
                        "s",
                        G + "window",
                        "seconds",
                        0.001,
                        86_400,
                        "Rolling comparison window; it must be a whole number of buckets."),
                number(
                        "Gateway stage",
                        "gw_bucket",
                        "Bucket",
                        "s",
                        G + "bucket",
                        "seconds",
                        0.001,
                        86_400,
                        "The window's resolution: attempts are counted per bucket, and old buckets drop out whole."),
                number(
                        "Gateway stage",
                        "gw_min_requests",
                        "Min requests",
                        "attempts",
                        G + "min_requests",
                        "count",
                        1,
                        Integer.MAX_VALUE,
                        "An endpoint is scored (judged, and a peer for others) once it has this many attempts in the window."),
                number(
                        "Gateway stage",
                        "gw_stdev_factor",
                        "Stdev factor",
                        "σ",
                        G + "stdev_factor",
                        "decimal",
                        0,
                        1_000,
                        "Eject when the success rate is strictly below mean - factor x stdev of the peers' rates; with 2 to 4 endpoints and peer_set all, 2 can never fire."),
                choice(
                        "Gateway stage",
                        "gw_peer_set",
                        "Peer set",
                        G + "peer_set",
                        List.of("all", "others"),
                        "all: mean and stdev over every scored endpoint, the judged one included (Envoy's and gRPC's convention); others: leave-one-out."),
                number(
                        "Gateway stage",
                        "gw_min_stdev",
                        "Min stdev",
                        "pct points",
                        G + "min_stdev",
                        "decimal",
                        0,
                        100,
                        "Below this spread the statistical rule does not fire: one failure more than the others is not an outlier."),
                number(
                        "Gateway stage",
                        "gw_consecutive_failures",
                        "Consecutive failures",
                        "failures",
                        G + "consecutive_failures",
                        "count",
                        0,
                        Integer.MAX_VALUE,
                        "The hard trip: this many failed attempts in a row eject at once, no peer comparison (0 turns it off)."),
                number(
                        "Gateway stage",
                        "gw_ejection_time",
                        "Ejection time",
                        "s",
                        G + "ejection_time",
                        "seconds",
                        0.001,
                        86_400,
                        "How long an ejection lasts: fixed, no backoff, no probe; the endpoint returns with an empty window."),
                number(
                        "Gateway stage",
                        "gw_processes",
                        "Processes",
                        "processes",
                        G + "processes",
                        "count",
                        1,
                        GatewayConfig.MAX_PROCESSES,
                        "Gateway processes, each with its own windows, counts and ejections, so they eject at different moments."),
                choice(
                        "Routing",
                        "gw_strategy",
                        "Strategy",
                        "routing.strategy",
                        List.of("ordered", "round_robin", "weighted"),
                        "ordered: always the listed order (the others get only fallbacks); round_robin: each process rotates; weighted: nginx's smooth weighted round robin picks the first."),
                new Control(
                        "Routing",
                        "gw_weights",
                        "Weights",
                        "",
                        "routing.weights",
                        "weights",
                        1,
                        RoutingConfig.MAX_WEIGHT,
                        1,
                        "With weighted: one positive whole number per endpoint, comma-separated, e.g. 3, 1.",
                        List.of()),
                number(
                        "Routing",
                        "gw_fallbacks",
                        "Fallbacks",
                        "attempts",
                        "routing.fallbacks",
                        "count",
                        0,
                        1_000,
                        "After a failed attempt, try up to this many next candidates; the caller sees a failure only when the last attempt fails."));
    }

    private static Control number(
            String group,
            String id,
            String label,
            String unit,
            String path,
            String kind,
            double min,
            double max,
            String description) {
        return new Control(group, id, label, unit, path, kind, min, max, 1, description, List.of());
    }

    private static Control choice(
            String group, String id, String label, String path, List<String> options, String description) {
        return new Control(group, id, label, "", path, "choice", 0, 0, 0, description, options);
    }

    /** The {@code gateway} part of {@code GET /api/settings}: defaults, controls and presets. */
    static ObjectNode settingsJson(SimulationLimits limits) {
        ObjectMapper m = ResultJson.mapper();
        ObjectNode root = m.createObjectNode();
        root.set("defaults", m.valueToTree(GatewayScenarioWriter.toMap(GatewayScenario.defaults())));
        root.set("controls", m.valueToTree(controls(limits)));
        ArrayNode presets = root.putArray("presets");
        for (GatewayComparisons.Comparison c : GatewayComparisons.all()) {
            ObjectNode p = presets.addObject();
            p.put("id", c.id());
            p.put("label", c.name());
            p.put("hint", c.hint());
            ArrayNode sets = p.putArray("sets");
            c.sets().forEach(sets::add);
            p.set("scenario", m.valueToTree(GatewayScenarioWriter.toMap(c.scenario())));
        }
        return root;
    }
}
