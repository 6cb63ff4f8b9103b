package dev.outlierlab.live;

import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.grpc.GrpcDetector;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.stage.RotationGuard;
import java.util.ArrayList;
import java.util.Arrays;
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
final class GrpcPoolDetector implements PoolDetector {
    private final GrpcOutlierConfig config;
    private final RandomSource random;
    private final DecisionSink sink;
    /** The members in the detector's order: index i here is endpoint i there. */
    private final List<Endpoint> members = new ArrayList<>();
    private int[] indexById = new int[16];
    private long[] lastReturnNanos = new long[0];
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
        members.add(endpoint);
        if (endpoint.id() >= indexById.length) {
            indexById = Arrays.copyOf(indexById, Math.max(indexById.length * 2, endpoint.id() + 1));
        }
        indexById[endpoint.id()] = index;
        lastReturnNanos = Arrays.copyOf(lastReturnNanos, members.size());
        lastReturnNanos[index] = -1;
    }

    @Override
    public void remove(Endpoint endpoint, long nowNanos) {
        int index = members.indexOf(endpoint);
        if (index < 0) {
            return;
        }
        detector.runDue(nowNanos);
        detector.removeEndpoint(index);
        members.remove(index);
        for (int i = index; i < members.size(); i++) {
            indexById[members.get(i).id()] = i;
        }
        long[] kept = new long[members.size()];
        System.arraycopy(lastReturnNanos, 0, kept, 0, index);
        System.arraycopy(lastReturnNanos, index + 1, kept, index, kept.length - index);
        lastReturnNanos = kept;
    }

    private void onEvent(OutlierEvent event) {
        int index = -1;
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).name().equals(event.host())) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            return;
        }
        Endpoint endpoint = members.get(index);
        switch (event.action()) {
            case EJECT -> sink.decided(endpoint, DecisionKind.EJECT, event.timeNanos(), event.type().statSuffix(), event);
            case UNEJECT -> {
                lastReturnNanos[index] = event.timeNanos();
                sink.decided(endpoint, DecisionKind.RETURN, event.timeNanos(),
                        event.uneject().name().toLowerCase(Locale.ROOT), event);
            }
            case OVERFLOW, UNENFORCED -> sink.decided(endpoint, DecisionKind.REFUSED, event.timeNanos(),
                    event.action().jsonName() + " " + event.type().statSuffix(), event);
        }
    }

    @Override
    public void apply(Endpoint endpoint, int code, long nowNanos) {
        detector.record(indexById[endpoint.id()], code, nowNanos);
    }

    @Override
    public void runDue(long nowNanos) {
        if (detector != null) {
            detector.runDue(nowNanos);
        }
    }

    @Override
    public long nextDueNanos() {
        return detector == null ? Long.MAX_VALUE : detector.nextDueNanos();
    }

    @Override
    public RotationGuard guard() {
        return RotationGuard.NEVER_EMPTY;
    }

    @Override
    public EndpointState state(Endpoint endpoint) {
        int i = indexById[endpoint.id()];
        long ejections = detector.numEjections(i);
        return new EndpointState(endpoint.name(), detector.isEjected(i), ejections,
                ejections == 0 ? -1 : detector.ejectedAtNanos(i), lastReturnNanos[i], 0, detector.multiplier(i));
    }

    @Override
    public Map<String, Long> stats() {
        return detector == null ? Map.of() : detector.stats().asMap();
    }
}
