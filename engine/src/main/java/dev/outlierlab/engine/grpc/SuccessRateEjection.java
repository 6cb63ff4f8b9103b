package dev.outlierlab.engine.grpc;

/**
 * gRPC's {@code success_rate_ejection} block (gRFC A50; grpc-java's
 * {@code OutlierDetectionLoadBalancerConfig.SuccessRateEjection}): an endpoint whose success fraction is below
 * {@code mean - stdev * (stdevFactor / 1000)} over the endpoints with at least {@code requestVolume} calls in the
 * last interval is an outlier, when at least {@code minimumHosts} endpoints have that volume. Validated as
 * grpc-java's builder does: every value at least 0, the enforcement percentage at most 100.
 */
public record SuccessRateEjection(int stdevFactor, int enforcementPercentage, int minimumHosts, int requestVolume) {
    /** A50's defaults: 1900, 100, 5, 100. */
    public static final SuccessRateEjection DEFAULTS = new SuccessRateEjection(1900, 100, 5, 100);

    public SuccessRateEjection {
        GrpcOutlierConfig.checkRange("success_rate_ejection.stdev_factor", stdevFactor, Integer.MAX_VALUE);
        GrpcOutlierConfig.checkRange("success_rate_ejection.enforcement_percentage", enforcementPercentage, 100);
        GrpcOutlierConfig.checkRange("success_rate_ejection.minimum_hosts", minimumHosts, Integer.MAX_VALUE);
        GrpcOutlierConfig.checkRange("success_rate_ejection.request_volume", requestVolume, Integer.MAX_VALUE);
    }
}
