package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.List;

/**
 * An Envoy cluster's {@code outlier_detection} as gRPC's xDS client maps it (gRFC A50 "xDS Integration"):
 * {@code enforcing_success_rate: 0} leaves success rate off, the twelve fields A50 lists map one to one and every
 * other field is ignored. A {@code max_ejection_percent} above 100, which Envoy accepts, makes gRPC NACK the cluster.
 * Failure percentage differs by library:
 * <ul>
 *   <li>grpc-java 1.85.1 ({@code EnvoyServerProtoData.OutlierDetection.fromEnvoyOutlierDetection}, then
 *       {@code CdsLoadBalancer2.buildOutlierDetectionLbConfig}) leaves it off only for an explicit
 *       {@code enforcing_failure_percentage: 0}; unset, it is on, each unset field taking the balancer's default:
 *       threshold 85, enforcement <em>100</em> (Envoy's is 0), minimum hosts 5, request volume 50.
 *       {@code max_ejection_time} unset is 300 s (the balancer's default; its ejection time is
 *       {@code max(base, max_ejection_time)}, so the effect equals Envoy's {@code max(300s, base)}).
 *       {@code XdsMappingAgainstGrpcJavaTest} calls that code for random clusters.</li>
 *   <li>grpc-go and C-core (read from source) leave it off unless {@code enforcing_failure_percentage} is set
 *       above 0.</li>
 * </ul>
 *
 * @param config  what the gRPC client runs
 * @param ignored the Envoy fields given explicitly that gRPC ignores, by their Envoy names
 */
public record XdsOutlierMapping(GrpcOutlierConfig config, List<String> ignored) {
    /** The settings gRPC's xDS client reads. */
    private static final List<OutlierSetting> READ = List.of(
            OutlierSetting.INTERVAL,
            OutlierSetting.BASE_EJECTION_TIME,
            OutlierSetting.MAX_EJECTION_TIME,
            OutlierSetting.MAX_EJECTION_PERCENT,
            OutlierSetting.SUCCESS_RATE_STDEV_FACTOR,
            OutlierSetting.ENFORCING_SUCCESS_RATE,
            OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
            OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
            OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
            OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
            OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
            OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);

    /** grpc-java's failure-percentage enforcement when the cluster leaves it unset (its balancer's default). */
    public static final int JAVA_FAILURE_PERCENTAGE_ENFORCEMENT = 100;
    /** grpc-java's {@code max_ejection_time} when the cluster leaves it unset. */
    public static final long JAVA_MAX_EJECTION_TIME_NANOS = 300_000_000_000L;

    public XdsOutlierMapping {
        ignored = List.copyOf(ignored);
    }

    /** Maps Envoy's settings for the given gRPC implementation. */
    public static XdsOutlierMapping of(OutlierDetectionConfig envoy, GrpcImplementation implementation) {
        if (envoy.maxEjectionPercent() > 100) {
            throw new InvalidConfigException(
                    "outlier_detection.max_ejection_percent",
                    Long.toString(envoy.maxEjectionPercent()),
                    "at most 100 for a gRPC client (gRPC NACKs the cluster)");
        }
        SuccessRateEjection sr = envoy.get(OutlierSetting.ENFORCING_SUCCESS_RATE) == 0
                ? null
                : new SuccessRateEjection(
                        toInt(envoy, OutlierSetting.SUCCESS_RATE_STDEV_FACTOR),
                        toInt(envoy, OutlierSetting.ENFORCING_SUCCESS_RATE),
                        toInt(envoy, OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS),
                        toInt(envoy, OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME));
        boolean java = implementation == GrpcImplementation.JAVA;
        boolean fpExplicit = envoy.isExplicit(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE);
        boolean fpOff = java
                ? fpExplicit && envoy.get(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE) == 0
                : envoy.get(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE) == 0;
        FailurePercentageEjection fp = fpOff
                ? null
                : new FailurePercentageEjection(
                        toInt(envoy, OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD),
                        java && !fpExplicit
                                ? JAVA_FAILURE_PERCENTAGE_ENFORCEMENT
                                : toInt(envoy, OutlierSetting.ENFORCING_FAILURE_PERCENTAGE),
                        toInt(envoy, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS),
                        toInt(envoy, OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME));
        long maxEjection = java && !envoy.isExplicit(OutlierSetting.MAX_EJECTION_TIME)
                ? JAVA_MAX_EJECTION_TIME_NANOS
                : envoy.maxEjectionTimeNanos();
        GrpcOutlierConfig config = new GrpcOutlierConfig(
                envoy.intervalNanos(),
                envoy.baseEjectionTimeNanos(),
                maxEjection,
                (int) envoy.maxEjectionPercent(),
                sr,
                fp,
                implementation);
        List<String> ignored = new ArrayList<>();
        for (OutlierSetting s : OutlierSetting.values()) {
            if (!READ.contains(s) && envoy.isExplicit(s)) {
                ignored.add(s.envoyName());
            }
        }
        return new XdsOutlierMapping(config, ignored);
    }

    /** Whether a setting is one gRPC's xDS client reads. */
    public static boolean isRead(OutlierSetting setting) {
        return READ.contains(setting);
    }

    private static int toInt(OutlierDetectionConfig envoy, OutlierSetting s) {
        long v = envoy.get(s);
        if (v > Integer.MAX_VALUE) {
            throw new InvalidConfigException(
                    "outlier_detection." + s.envoyName(),
                    Long.toString(v),
                    "at most " + Integer.MAX_VALUE + " for a gRPC client");
        }
        return (int) v;
    }
}
