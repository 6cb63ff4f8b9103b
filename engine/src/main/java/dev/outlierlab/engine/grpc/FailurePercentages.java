package dev.outlierlab.engine.grpc;

/**
 * Each gRPC library's failure-percentage arithmetic for {@link GrpcDetector} (grpc-java
 * {@code failureRate() > threshold / 100.0}, grpc-go {@code failures / calls * 100 > threshold}, C-core
 * {@code 100 - success% > threshold}), which differ in rounding.
 */
final class FailurePercentages {
    private FailurePercentages() {}

    /** The failure percentage as the implementation computes it (for the test and for reports). */
    static double failurePercent(GrpcImplementation impl, long successes, long failures) {
        long volume = successes + failures;
        return switch (impl) {
            case JAVA -> ((double) failures / (double) volume) * 100;
            case GO -> ((double) failures / (double) volume) * 100;
            case CORE -> 100.0 - successes * 100.0 / volume;
        };
    }

    /** Whether the endpoint is a failure-percentage outlier, in the implementation's own comparison. */
    static boolean failureOutlier(GrpcImplementation impl, long failures, long volume, double percent, int threshold) {
        if (impl == GrpcImplementation.JAVA) {
            return (double) failures / (double) volume > threshold / 100.0;
        }
        return percent > threshold;
    }
}
