package dev.outlierlab.engine.grpc;

/**
 * gRPC's {@code failure_percentage_ejection} block (gRFC A50; grpc-java's
 * {@code OutlierDetectionLoadBalancerConfig.FailurePercentageEjection}): an endpoint with at least
 * {@code requestVolume} calls in the last interval whose failure share is strictly greater than
 * {@code threshold} percent is an outlier, when at least {@code minimumHosts} endpoints have that volume.
 * Validated as grpc-java's builder does: threshold and enforcement 0 to 100, the others at least 0.
 */
public record FailurePercentageEjection(int threshold, int enforcementPercentage, int minimumHosts, int requestVolume) {
    /** A50's defaults: 85, 100, 5, 50. */
    public static final FailurePercentageEjection DEFAULTS = new FailurePercentageEjection(85, 100, 5, 50);

    public FailurePercentageEjection {
        GrpcOutlierConfig.checkRange("failure_percentage_ejection.threshold", threshold, 100);
        GrpcOutlierConfig.checkRange("failure_percentage_ejection.enforcement_percentage", enforcementPercentage, 100);
        GrpcOutlierConfig.checkRange("failure_percentage_ejection.minimum_hosts", minimumHosts, Integer.MAX_VALUE);
        GrpcOutlierConfig.checkRange("failure_percentage_ejection.request_volume", requestVolume, Integer.MAX_VALUE);
    }
}
