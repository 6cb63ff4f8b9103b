package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.grpc.XdsNotes;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import dev.outlierlab.report.GrpcResultJson;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gRPC profile's controls for the page, defined once like {@link LabControls}: the {@code grpc:} block of a
 * {@code profile: grpc} scenario (gRPC's service-config fields in snake_case, gRFC A50 and grpc-java's
 * {@code OutlierDetectionLoadBalancerProvider}), each with its range and a one-line explanation. With the default
 * block (the default scenario's {@code outlier_detection} as gRPC's xDS client maps it) they form the {@code grpc}
 * part of {@code GET /api/settings}.
 */
final class GrpcControls {
    private static final String G = "grpc.";
    private static final String SR = G + "success_rate_ejection.";
    private static final String FP = G + "failure_percentage_ejection.";
    private static final String SR_GROUP = "gRPC success-rate ejection";
    private static final String FP_GROUP = "gRPC failure-percentage ejection";

    private GrpcControls() {}

    static List<LabControls.Control> controls() {
        return List.of(
                choice(
                        "gRPC ejection",
                        "grpc_implementation",
                        "Implementation",
                        G + "implementation",
                        Arrays.stream(GrpcImplementation.values())
                                .map(GrpcImplementation::key)
                                .toList(),
                        "Which gRPC library: java (grpc-java 1.85.1, checked against the real library), go or core "
                                + "(grpc-go and C-core, read from their source; they differ on the cap and double ejections)."),
                number(
                        "gRPC ejection",
                        "grpc_interval",
                        "Interval",
                        "s",
                        G + "interval",
                        "seconds",
                        0.001,
                        86_400,
                        "Time between sweeps: each one swaps the counters and judges the last interval's calls."),
                number(
                        "gRPC ejection",
                        "grpc_base_ejection_time",
                        "Base ejection time",
                        "s",
                        G + "base_ejection_time",
                        "seconds",
                        0,
                        86_400,
                        "An ejection lasts base x multiplier (at most max(base, max)); the return "
                                + "is checked at the end of a sweep, strictly after that time."),
                number(
                        "gRPC ejection",
                        "grpc_max_ejection_time",
                        "Max ejection time",
                        "s",
                        G + "max_ejection_time",
                        "seconds",
                        0,
                        86_400,
                        "The longest an ejection lasts; the multiplier still grows without bound."),
                number(
                        "gRPC ejection",
                        "grpc_max_ejection_percent",
                        "Max ejection percent",
                        "%",
                        G + "max_ejection_percent",
                        "count",
                        0,
                        100,
                        "The cap, tested before each candidate: ejected % >= this stops, so the first "
                                + "ejection always goes and the cap can be passed by one."),
                toggle(
                        SR_GROUP,
                        "grpc_success_rate_on",
                        "Success-rate ejection",
                        G + "success_rate_ejection",
                        block(SuccessRateEjection.DEFAULTS),
                        "An endpoint whose success rate is below mean - stdev_factor / 1000 x stdev is an outlier; "
                                + "off leaves the block out (the algorithm is not configured)."),
                number(
                        SR_GROUP,
                        "grpc_stdev_factor",
                        "Stdev factor",
                        "x 1000",
                        SR + "stdev_factor",
                        "count",
                        0,
                        Integer.MAX_VALUE,
                        "1900 means 1.9 standard deviations (grpc-java divides it by 1000 in float)."),
                number(
                        SR_GROUP,
                        "grpc_sr_enforcement",
                        "Enforcement percentage",
                        "%",
                        SR + "enforcement_percentage",
                        "count",
                        0,
                        100,
                        "The chance an outlier is ejected: a draw in [0, 100) below it."),
                number(
                        SR_GROUP,
                        "grpc_sr_minimum_hosts",
                        "Minimum hosts",
                        "endpoints",
                        SR + "minimum_hosts",
                        "count",
                        0,
                        Integer.MAX_VALUE,
                        "Success rate runs only with at least this many endpoints with the volume."),
                number(
                        SR_GROUP,
                        "grpc_sr_request_volume",
                        "Request volume",
                        "calls",
                        SR + "request_volume",
                        "count",
                        0,
                        Integer.MAX_VALUE,
                        "Calls an endpoint needs in the interval to be judged (ejected ones included)."),
                toggle(
                        FP_GROUP,
                        "grpc_failure_percentage_on",
                        "Failure-percentage ejection",
                        G + "failure_percentage_ejection",
                        block(FailurePercentageEjection.DEFAULTS),
                        "An endpoint whose failed share of calls is strictly above the threshold is an outlier; off "
                                + "leaves the block out."),
                number(
                        FP_GROUP,
                        "grpc_fp_threshold",
                        "Threshold",
                        "%",
                        FP + "threshold",
                        "count",
                        0,
                        100,
                        "Failed calls over calls, strictly greater: 100 never ejects."),
                number(
                        FP_GROUP,
                        "grpc_fp_enforcement",
                        "Enforcement percentage",
                        "%",
                        FP + "enforcement_percentage",
                        "count",
                        0,
                        100,
                        "The chance an outlier is ejected: a draw in [0, 100) below it."),
                number(
                        FP_GROUP,
                        "grpc_fp_minimum_hosts",
                        "Minimum hosts",
                        "endpoints",
                        FP + "minimum_hosts",
                        "count",
                        0,
                        Integer.MAX_VALUE,
                        "Failure percentage runs only with at least this many endpoints with the volume."),
                number(
                        FP_GROUP,
                        "grpc_fp_request_volume",
                        "Request volume",
                        "calls",
                        FP + "request_volume",
                        "count",
                        0,
                        Integer.MAX_VALUE,
                        "Calls an endpoint needs in the interval to be judged."));
    }

    private static Map<String, Object> block(SuccessRateEjection d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stdev_factor", (long) d.stdevFactor());
        m.put("enforcement_percentage", (long) d.enforcementPercentage());
        m.put("minimum_hosts", (long) d.minimumHosts());
        m.put("request_volume", (long) d.requestVolume());
        return m;
    }

    private static Map<String, Object> block(FailurePercentageEjection d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threshold", (long) d.threshold());
        m.put("enforcement_percentage", (long) d.enforcementPercentage());
        m.put("minimum_hosts", (long) d.minimumHosts());
        m.put("request_volume", (long) d.requestVolume());
        return m;
    }

    private static LabControls.Control number(
            String group,
            String id,
            String label,
            String unit,
            String path,
            String kind,
            double min,
            double max,
            String description) {
        return new LabControls.Control(
                group, id, label, unit, path, kind, min, max, 1, description, null, null, List.of());
    }

    private static LabControls.Control choice(
            String group, String id, String label, String path, List<String> options, String description) {
        return new LabControls.Control(group, id, label, "", path, "choice", 0, 0, 0, description, null, null, options);
    }

    private static LabControls.Control toggle(
            String group, String id, String label, String path, Object on, String description) {
        return new LabControls.Control(group, id, label, "", path, "toggle", 0, 1, 1, description, on, null, List.of());
    }

    /** The {@code grpc} part of {@code GET /api/settings}: the default {@code grpc:} block and the controls. */
    static ObjectNode settingsJson() {
        ObjectMapper m = ResultJson.mapper();
        ObjectNode root = m.createObjectNode();
        root.set(
                "defaults",
                GrpcResultJson.blockTree(XdsNotes.settings(
                                Scenario.defaults().outlierDetection(),
                                GrpcImplementation.JAVA,
                                "outlier_detection, as gRPC's xDS client maps it")
                        .config()));
        root.set("controls", m.valueToTree(controls()));
        return root;
    }
}
