package io.grpc.util;

/**
 * grpc-java's per-call outlier-detection bookkeeping, reached for the benchmark: each finished call of
 * {@link OutlierDetectionLoadBalancer} ends in {@code EndpointTracker.incrementCallCount(success)} (from its
 * {@code ResultCountingClientStreamTracer}), an increment of one of two {@code AtomicLong}s per endpoint.
 * The tracker is package-private, hence this class in grpc's package; it only constructs trackers and calls
 * that one method, nothing else of the load balancer.
 */
public final class GrpcCallTracking {
    private final OutlierDetectionLoadBalancer.EndpointTracker[] trackers;

    public GrpcCallTracking(int endpoints) {
        OutlierDetectionLoadBalancer.OutlierDetectionLoadBalancerConfig config =
                new OutlierDetectionLoadBalancer.OutlierDetectionLoadBalancerConfig.Builder()
                        .setChildConfig(new Object())
                        .setSuccessRateEjection(
                                new OutlierDetectionLoadBalancer.OutlierDetectionLoadBalancerConfig.SuccessRateEjection
                                                .Builder()
                                        .build())
                        .build();
        trackers = new OutlierDetectionLoadBalancer.EndpointTracker[endpoints];
        for (int i = 0; i < endpoints; i++) {
            trackers[i] = new OutlierDetectionLoadBalancer.EndpointTracker(config);
        }
    }

    /** What the picker's stream tracer does when a call to endpoint {@code i} closes. */
    public void callClosed(int endpoint, boolean ok) {
        trackers[endpoint].incrementCallCount(ok);
    }

    /** Calls counted in the active interval, over every endpoint. */
    public long activeVolume() {
        long sum = 0;
        for (OutlierDetectionLoadBalancer.EndpointTracker t : trackers) {
            sum += t.activeVolume();
        }
        return sum;
    }
}
