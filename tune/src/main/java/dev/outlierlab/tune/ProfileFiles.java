package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files of the two targets that are not Envoy's outlier detection, written and read back by the project's
 * readers: a gRPC service config ({@code loadBalancingConfig} with {@code outlier_detection_experimental} and a
 * {@code round_robin} child, grpc-java's key spellings, read by {@link ServiceConfigReader}) and a gateway
 * configuration (a top-level {@code gateway:} and {@code routing:} section, read as {@code check} and {@code run} read
 * it, through {@link CheckInputs}).
 */
final class ProfileFiles {
    private ProfileFiles() {}

    /** The setting as grpc-java's service config; an absent block is that algorithm off, as in gRPC. */
    static String serviceConfig(Setting s) {
        StringBuilder j = new StringBuilder();
        j.append("{\n  \"loadBalancingConfig\": [\n    {\n      \"")
                .append(ServiceConfigReader.POLICY)
                .append("\": {\n");
        j.append("        \"interval\": \"")
                .append(protoDuration(s.intervalNanos()))
                .append("\",\n");
        j.append("        \"baseEjectionTime\": \"")
                .append(protoDuration(s.baseEjectionTimeNanos()))
                .append("\",\n");
        j.append("        \"maxEjectionTime\": \"")
                .append(protoDuration(
                        Math.max(s.baseEjectionTimeNanos(), GrpcOutlierConfig.DEFAULT_MAX_EJECTION_TIME_NANOS)))
                .append("\",\n");
        j.append("        \"maxEjectionPercentage\": ")
                .append(s.maxEjectionPercent())
                .append(",\n");
        if (s.successRateStdevFactor() > 0) {
            j.append("        \"successRateEjection\": {\n          \"stdevFactor\": ")
                    .append(s.successRateStdevFactor())
                    .append(",\n          \"enforcementPercentage\": 100,\n          \"minimumHosts\": ")
                    .append(s.successRateMinimumHosts())
                    .append(",\n          \"requestVolume\": ")
                    .append(s.successRateRequestVolume())
                    .append("\n        },\n");
        }
        if (s.failurePercentageThreshold() > 0) {
            j.append("        \"failurePercentageEjection\": {\n          \"threshold\": ")
                    .append(s.failurePercentageThreshold())
                    .append(",\n          \"enforcementPercentage\": 100,\n" + "          \"minimumHosts\": ")
                    .append(s.failurePercentageMinimumHosts())
                    .append(",\n          \"requestVolume\": ")
                    .append(s.failurePercentageRequestVolume())
                    .append("\n        },\n");
        }
        j.append("        \"childPolicy\": [{\"round_robin\": {}}]\n      }\n    }\n  ]\n}\n");
        return j.toString();
    }

    /**
     * The policy's config as a service config says it (gRPC's {@code outlierDetection} fields of A50, grpc-java's
     * JSON spellings, {@code google.protobuf.Duration} strings), in the order {@link #serviceConfig} writes them; an
     * algorithm that is off has no block, as in the file.
     */
    static Map<String, Object> serviceConfigFields(GrpcOutlierConfig g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("interval", protoDuration(g.intervalNanos()));
        m.put("baseEjectionTime", protoDuration(g.baseEjectionTimeNanos()));
        m.put("maxEjectionTime", protoDuration(g.maxEjectionTimeNanos()));
        m.put("maxEjectionPercentage", g.maxEjectionPercent());
        SuccessRateEjection sr = g.successRate();
        if (sr != null) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("stdevFactor", sr.stdevFactor());
            b.put("enforcementPercentage", sr.enforcementPercentage());
            b.put("minimumHosts", sr.minimumHosts());
            b.put("requestVolume", sr.requestVolume());
            m.put("successRateEjection", b);
        }
        FailurePercentageEjection fp = g.failurePercentage();
        if (fp != null) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("threshold", fp.threshold());
            b.put("enforcementPercentage", fp.enforcementPercentage());
            b.put("minimumHosts", fp.minimumHosts());
            b.put("requestVolume", fp.requestVolume());
            m.put("failurePercentageEjection", b);
        }
        return m;
    }

    /**
     * The gateway profile's {@code gateway:} block as {@link #gatewayConfig} writes it: its names, durations as
     * written, factors as numbers.
     */
    static Map<String, Object> gatewayFields(GatewayConfig g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", g.mode().configName());
        m.put("window", Durations.format(g.windowNanos()));
        m.put("bucket", Durations.format(g.bucketNanos()));
        m.put("min_requests", g.minRequests());
        m.put("stdev_factor", SettingFields.decimal(g.stdevFactor()));
        m.put("peer_set", g.peerSet().configName());
        m.put("min_stdev", SettingFields.decimal(g.minStdevPercent()));
        m.put("consecutive_failures", g.consecutiveFailures());
        m.put("ejection_time", Durations.format(g.ejectionTimeNanos()));
        m.put("processes", g.processes());
        return m;
    }

    /** A service config read back as grpc-java reads it. */
    static GrpcOutlierConfig readServiceConfig(String text, String source) {
        return ServiceConfigReader.read(text, source, GrpcImplementation.JAVA).config();
    }

    /**
     * gRPC's settings in Envoy's fields, for the search's shared vocabulary ({@link Setting#of}): no consecutive
     * detectors, each algorithm's enforcement as Envoy's {@code enforcing_*} (0 when the block is absent).
     */
    static OutlierDetectionConfig asEnvoyFields(GrpcOutlierConfig g) {
        OutlierDetectionConfig.Builder b = TuneRuns.OFF.toBuilder()
                .set(OutlierSetting.INTERVAL, g.intervalNanos())
                .set(OutlierSetting.BASE_EJECTION_TIME, g.baseEjectionTimeNanos())
                .set(OutlierSetting.MAX_EJECTION_TIME, Math.max(g.baseEjectionTimeNanos(), g.maxEjectionTimeNanos()))
                .set(OutlierSetting.MAX_EJECTION_PERCENT, g.maxEjectionPercent());
        SuccessRateEjection sr = g.successRate();
        if (sr != null) {
            b.set(OutlierSetting.ENFORCING_SUCCESS_RATE, sr.enforcementPercentage())
                    .set(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR, sr.stdevFactor())
                    .set(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, sr.minimumHosts())
                    .set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, sr.requestVolume());
        }
        FailurePercentageEjection fp = g.failurePercentage();
        if (fp != null) {
            b.set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, fp.enforcementPercentage())
                    .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, fp.threshold())
                    .set(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, fp.minimumHosts())
                    .set(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, fp.requestVolume());
        }
        return b.build();
    }

    /** The gateway setting as a gateway configuration for {@code hosts} endpoints, with these routing settings. */
    static String gatewayConfig(GatewayConfig g, int hosts, RoutingConfig routing) {
        StringBuilder y = new StringBuilder();
        y.append("profile: gateway\ncluster:\n  hosts: ").append(hosts).append('\n');
        y.append("gateway:\n  mode: ").append(g.mode().configName()).append('\n');
        y.append("  window: ").append(Durations.format(g.windowNanos())).append('\n');
        y.append("  bucket: ").append(Durations.format(g.bucketNanos())).append('\n');
        y.append("  min_requests: ").append(g.minRequests()).append('\n');
        y.append("  stdev_factor: ").append(decimal(g.stdevFactor())).append('\n');
        y.append("  peer_set: ").append(g.peerSet().configName()).append('\n');
        y.append("  min_stdev: ").append(decimal(g.minStdevPercent())).append('\n');
        y.append("  consecutive_failures: ").append(g.consecutiveFailures()).append('\n');
        y.append("  ejection_time: ")
                .append(Durations.format(g.ejectionTimeNanos()))
                .append('\n');
        y.append("  processes: ").append(g.processes()).append('\n');
        y.append("routing:\n  strategy: ")
                .append(routing.strategy().configName())
                .append('\n');
        if (!routing.weights().isEmpty()) {
            y.append("  weights: ").append(routing.weights()).append('\n');
        }
        y.append("  fallbacks: ").append(routing.fallbacks()).append('\n');
        return y.toString();
    }

    /** A gateway configuration read back as {@code check} reads it. */
    static CheckTarget readGateway(String text, String source) {
        List<CheckTarget> read = CheckInputs.read(text, source, null, false).targets();
        if (read.size() != 1 || read.get(0).gateway() == null) {
            throw new InputException(source + ": the gateway configuration written does not read back as one gateway");
        }
        return read.get(0);
    }

    /** A {@code google.protobuf.Duration} JSON string: seconds with up to nine decimals, e.g. {@code 10s}, {@code 0.5s}. */
    static String protoDuration(long nanos) {
        return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
    }

    private static String decimal(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString().contains(".")
                ? BigDecimal.valueOf(d).stripTrailingZeros().toPlainString()
                : BigDecimal.valueOf(d).setScale(1).toPlainString();
    }
}
