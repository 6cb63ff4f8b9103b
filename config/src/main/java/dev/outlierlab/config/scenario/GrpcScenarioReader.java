package dev.outlierlab.config.scenario;

import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.grpc.XdsNotes;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code grpc:} block of a {@code profile: grpc} scenario: gRPC's service-config fields in snake_case
 * ({@code interval}, {@code base_ejection_time}, {@code max_ejection_time}, {@code max_ejection_percent},
 * {@code success_rate_ejection}, {@code failure_percentage_ejection}) and {@code implementation} (java, go or
 * core). An absent algorithm block leaves that algorithm off, as in the service config. A block with no key but
 * {@code implementation} (or no block) reads the scenario's {@code outlier_detection} as gRPC's xDS client maps it.
 */
final class GrpcScenarioReader {
    static final Set<String> GRPC = Set.of(
            "interval",
            "base_ejection_time",
            "max_ejection_time",
            "max_ejection_percent",
            "success_rate_ejection",
            "failure_percentage_ejection",
            "implementation");
    private static final Set<String> SUCCESS_RATE =
            Set.of("stdev_factor", "enforcement_percentage", "minimum_hosts", "request_volume");
    private static final Set<String> FAILURE_PERCENTAGE =
            Set.of("threshold", "enforcement_percentage", "minimum_hosts", "request_volume");

    private GrpcScenarioReader() {}

    static GrpcSettings read(Values v, Located root, Located node, OutlierDetectionConfig envoy) {
        Map<String, Located> g = node == null || node.value() == null ? Map.of() : v.map(node, "grpc", GRPC);
        Located implNode = g.get("implementation");
        GrpcImplementation impl = implNode == null
                ? GrpcImplementation.JAVA
                : v.guard(
                        implNode,
                        "grpc.implementation",
                        () -> GrpcImplementation.parse("grpc.implementation", String.valueOf(implNode.value())));
        if (g.isEmpty() || (g.size() == 1 && implNode != null)) {
            try {
                return XdsNotes.settings(envoy, impl, "outlier_detection, as gRPC's xDS client maps it");
            } catch (InvalidConfigException e) {
                throw Values.errorShown(Values.find(root, e.key()), e.key(), e.value(), e.allowed());
            }
        }
        GrpcOutlierConfig d = GrpcOutlierConfig.defaults();
        long interval = v.duration(g.get("interval"), "grpc.interval", d.intervalNanos(), false);
        long base = v.duration(g.get("base_ejection_time"), "grpc.base_ejection_time", d.baseEjectionTimeNanos(), true);
        long max = v.duration(g.get("max_ejection_time"), "grpc.max_ejection_time", d.maxEjectionTimeNanos(), true);
        int maxPercent = (int)
                v.percent(g.get("max_ejection_percent"), "grpc.max_ejection_percent", d.maxEjectionPercent(), 0, 100);
        SuccessRateEjection sr = null;
        Located srNode = g.get("success_rate_ejection");
        if (srNode != null && srNode.value() != null) {
            Map<String, Located> m = v.map(srNode, "grpc.success_rate_ejection", SUCCESS_RATE);
            SuccessRateEjection x = SuccessRateEjection.DEFAULTS;
            sr = new SuccessRateEjection(
                    count(v, m, "stdev_factor", "grpc.success_rate_ejection", x.stdevFactor(), Integer.MAX_VALUE),
                    percent(v, m, "enforcement_percentage", "grpc.success_rate_ejection", x.enforcementPercentage()),
                    count(v, m, "minimum_hosts", "grpc.success_rate_ejection", x.minimumHosts(), Integer.MAX_VALUE),
                    count(v, m, "request_volume", "grpc.success_rate_ejection", x.requestVolume(), Integer.MAX_VALUE));
        }
        FailurePercentageEjection fp = null;
        Located fpNode = g.get("failure_percentage_ejection");
        if (fpNode != null && fpNode.value() != null) {
            Map<String, Located> m = v.map(fpNode, "grpc.failure_percentage_ejection", FAILURE_PERCENTAGE);
            FailurePercentageEjection x = FailurePercentageEjection.DEFAULTS;
            fp = new FailurePercentageEjection(
                    percent(v, m, "threshold", "grpc.failure_percentage_ejection", x.threshold()),
                    percent(
                            v,
                            m,
                            "enforcement_percentage",
                            "grpc.failure_percentage_ejection",
                            x.enforcementPercentage()),
                    count(
                            v,
                            m,
                            "minimum_hosts",
                            "grpc.failure_percentage_ejection",
                            x.minimumHosts(),
                            Integer.MAX_VALUE),
                    count(
                            v,
                            m,
                            "request_volume",
                            "grpc.failure_percentage_ejection",
                            x.requestVolume(),
                            Integer.MAX_VALUE));
        }
        try {
            return new GrpcSettings(
                    new GrpcOutlierConfig(interval, base, max, maxPercent, sr, fp, impl),
                    "the scenario's grpc block",
                    List.of());
        } catch (InvalidConfigException e) {
            throw Values.errorShown(Values.find(root, "grpc." + e.key()), "grpc." + e.key(), e.value(), e.allowed());
        }
    }

    private static int count(Values v, Map<String, Located> m, String key, String prefix, int fallback, int max) {
        return (int) v.integer(m.get(key), prefix + "." + key, fallback, 0, max);
    }

    /** A percentage from 0 to 100, written {@code 35} or {@code 35%}. */
    private static int percent(Values v, Map<String, Located> m, String key, String prefix, int fallback) {
        return (int) v.percent(m.get(key), prefix + "." + key, fallback, 0, 100);
    }
}
