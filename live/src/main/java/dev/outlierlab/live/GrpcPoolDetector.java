package dev.outlierlab.live;

import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.grpc.GrpcDetector;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The gRPC profile: the engine's {@link GrpcDetector} (grpc-java's {@code OutlierDetectionLoadBalancer}, or the go
 * and core variants) with sweeps at every multiple of {@code interval} from the pool's start, run before any outcome
 * at or after their time. The guard is the gateway's rule that the list never becomes empty: a gRPC channel has no
 * panic mode, and with every endpoint ejected it fails the call instead, which a pool cannot do for its caller.
 * Membership changes use the detector's own {@code addEndpoint} / {@code removeEndpoint}, as grpc-java adds and
 * drops trackers on an address update; the other endpoints keep their counters and ejections.
 */
final class GrpcPoolDetector extends ListedPoolDetector {
    private final GrpcOutlierConfig config;
    private final RandomSource random;
    private final DecisionSink sink;
    private GrpcDetector detector;

    GrpcPoolDetector(GrpcOutlierConfig config, RandomSource random, DecisionSink sink) {
        this.config = config;
        this.random = random;
        this.sink = sink;
    }

    @Override
    public String profile() {
        return "grpc";
    }

    @Override
    public void add(Endpoint endpoint, long nowNanos) {
        int index;
        if (detector == null) {
            detector = new GrpcDetector(config, List.of(endpoint.name()), random, this::onEvent, Long.MAX_VALUE);
            detector.runDue(nowNanos);
            index = 0;
        } else {
            detector.runDue(nowNanos);
            index = detector.addEndpoint(endpoint.name());
        }
        members.add(endpoint, index);
    }

    @Override
    public void remove(Endpoint endpoint, long nowNanos) {
        int index = members.indexOf(endpoint);
        if (index < 0) {
            return;
        }
        detector.runDue(nowNanos);
        detector.removeEndpoint(index);
        members.removeAt(index);
    }

    private void onEvent(OutlierEvent event) {
        int index = members.indexOf(event.host());
        if (index < 0) {
            return;
        }
        Endpoint endpoint = members.get(index);
        switch (event.action()) {
            case EJECT ->
                sink.decided(
                        endpoint,
                        DecisionKind.EJECT,
                        event.timeNanos(),
                        event.type().statSuffix(),
                        event);
            case UNEJECT -> {
                members.returned(index, event.timeNanos());
                sink.decided(
                        endpoint,
                        DecisionKind.RETURN,
                        event.timeNanos(),
                        event.uneject().name().toLowerCase(Locale.ROOT),
                        event);
            }
            case OVERFLOW, UNENFORCED ->
                sink.decided(
                        endpoint,
                        DecisionKind.REFUSED,
                        event.timeNanos(),
                        event.action().jsonName() + " " + event.type().statSuffix(),
                        event);
        }
    }

    @Override
    GrpcDetector engine() {
        return detector;
    }

    @Override
    public EndpointState state(Endpoint endpoint) {
        int i = members.index(endpoint);
        long ejections = detector.numEjections(i);
        return new EndpointState(
                endpoint.name(),
                detector.isEjected(i),
                ejections,
                ejections == 0 ? -1 : detector.ejectedAtNanos(i),
                members.lastReturnNanos(i),
                0,
                detector.multiplier(i));
    }

    @Override
    public Map<String, Long> stats() {
        return detector == null ? Map.of() : detector.stats().asMap();
    }
}
