package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.List;

/**
 * An Envoy cluster's {@code outlier_detection} as gRPC's xDS client maps it (gRFC A50 "xDS Integration";
 * grpc-java's {@code XdsClusterResource.buildOutlierDetection}): {@code enforcing_success_rate: 0} leaves success
 * rate off, {@code enforcing_failure_percentage} unset or 0 leaves failure percentage off, the twelve fields A50
 * lists map one to one and every other field is ignored. A {@code max_ejection_percent} above 100, which Envoy
 * accepts, makes gRPC NACK the cluster.
 *
 * @param config  what the gRPC client runs
 * @param ignored the Envoy fields given explicitly that gRPC ignores, by their Envoy names
 */
public record XdsOutlierMapping(GrpcOutlierConfig config, List<String> ignored) {
    /** The settings gRPC's xDS client reads. */
    private static final List<OutlierSetting> READ = List.of(OutlierSetting.INTERVAL, OutlierSetting.BASE_EJECTION_TIME,
            OutlierSetting.MAX_EJECTION_TIME, OutlierSetting.MAX_EJECTION_PERCENT, OutlierSetting.SUCCESS_RATE_STDEV_FACTOR,
            OutlierSetting.ENFORCING_SUCCESS_RATE, OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
            OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
            OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
            OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);

    public XdsOutlierMapping {
        ignored = List.copyOf(ignored);
    }

    /** Maps Envoy's settings for the given gRPC implementation. */
    public static XdsOutlierMapping of(OutlierDetectionConfig envoy, GrpcImplementation implementation) {
        if (envoy.maxEjectionPercent() > 100) {
            throw new InvalidConfigException("outlier_detection.max_ejection_percent",
                    Long.toString(envoy.maxEjectionPercent()), "at most 100 for a gRPC client (gRPC NACKs the cluster)");
        }
        SuccessRateEjection sr = envoy.get(OutlierSetting.ENFORCING_SUCCESS_RATE) == 0 ? null
                : new SuccessRateEjection(toInt(envoy, OutlierSetting.SUCCESS_RATE_STDEV_FACTOR),
                        toInt(envoy, OutlierSetting.ENFORCING_SUCCESS_RATE),
                        toInt(envoy, OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS),
                        toInt(envoy, OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME));
        FailurePercentageEjection fp = envoy.get(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE) == 0 ? null
                : new FailurePercentageEjection(toInt(envoy, OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD),
                        toInt(envoy, OutlierSetting.ENFORCING_FAILURE_PERCENTAGE),
                        toInt(envoy, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS),
                        toInt(envoy, OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME));
        GrpcOutlierConfig config = new GrpcOutlierConfig(envoy.intervalNanos(), envoy.baseEjectionTimeNanos(),
                envoy.maxEjectionTimeNanos(), (int) envoy.maxEjectionPercent(), sr, fp, implementation);
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
            throw new InvalidConfigException("outlier_detection." + s.envoyName(), Long.toString(v),
                    "at most " + Integer.MAX_VALUE + " for a gRPC client");
        }
        return (int) v;
    }
}
