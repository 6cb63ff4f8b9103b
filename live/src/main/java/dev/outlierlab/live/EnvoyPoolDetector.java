package dev.outlierlab.live;

import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.engine.envoy.PanicRule;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.stage.RotationGuard;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Envoy profile: the engine's {@link OutlierDetector} (Envoy v1.40.2's {@code DetectorImpl}) with ticks
 * at every multiple of {@code interval} from the pool's start, run before any outcome at or after their
 * time, exactly as the lab's trace replay runs them. A status is reported as Envoy's router reports it (a
 * connect success, then the code); local failures map as {@link LocalFailure} says. The guard is the lab
 * model's panic rule, Envoy's overprovisioned availability then {@code 100 * healthy / candidates <
 * panic_threshold} (the engine's {@link PanicRule#guard}), plus the gateway's rule that the list never becomes empty. Membership
 * changes use the detector's own {@code addHost}/{@code removeHost} (Envoy's member-update callback), so
 * the other hosts keep their state.
 */
final class EnvoyPoolDetector implements PoolDetector {
    private final OutlierDetectionConfig config;
    private final OutlierDetector detector;
    private final long panicThresholdPercent;
    private final Map<String, Endpoint> byName = new HashMap<>();
    private HostMonitor[] monitors = new HostMonitor[16];
    private long nextTickNanos;

    EnvoyPoolDetector(
            OutlierDetectionConfig config, long panicThresholdPercent, RandomSource random, DecisionSink sink) {
        this.config = config;
        this.panicThresholdPercent = panicThresholdPercent;
        this.nextTickNanos = config.intervalNanos();
        this.detector = new OutlierDetector(config, random, event -> {
            Endpoint endpoint = byName.get(event.host());
            if (endpoint != null) {
                sink.decided(endpoint, kind(event.action()), event.timeNanos(), reason(event), event);
            }
        });
    }

    @Override
    public String profile() {
        return "envoy";
    }

    OutlierDetectionConfig config() {
        return config;
    }

    @Override
    public void add(Endpoint endpoint, long nowNanos) {
        runDue(nowNanos);
        if (endpoint.id() >= monitors.length) {
            HostMonitor[] grown = new HostMonitor[Math.max(monitors.length * 2, endpoint.id() + 1)];
            System.arraycopy(monitors, 0, grown, 0, monitors.length);
            monitors = grown;
        }
        monitors[endpoint.id()] = detector.addHost(endpoint.name());
        byName.put(endpoint.name(), endpoint);
    }

    @Override
    public void remove(Endpoint endpoint, long nowNanos) {
        runDue(nowNanos);
        HostMonitor monitor = monitors[endpoint.id()];
        if (monitor != null) {
            detector.removeHost(monitor);
            monitors[endpoint.id()] = null;
            byName.remove(endpoint.name(), endpoint);
        }
    }

    @Override
    public void apply(Endpoint endpoint, int code, long nowNanos) {
        runDue(nowNanos);
        HostMonitor monitor = monitors[endpoint.id()];
        switch (code) {
            case Outcome.TIMEOUT -> monitor.putResult(RequestResult.LOCAL_ORIGIN_TIMEOUT, nowNanos);
            case Outcome.CONNECT_FAILED, Outcome.RESET ->
                monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, nowNanos);
            default -> {
                // A status means the connection was made: Envoy's router reports that first (it counts only in
                // split mode), then the code.
                if (config.splitExternalLocalOriginErrors()) {
                    monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, nowNanos);
                }
                monitor.putHttpResponseCode(code, nowNanos);
            }
        }
    }

    @Override
    public void runDue(long nowNanos) {
        while (nextTickNanos <= nowNanos) {
            detector.tick(nextTickNanos);
            nextTickNanos += config.intervalNanos();
        }
    }

    @Override
    public long nextDueNanos() {
        return nextTickNanos;
    }

    /** Envoy's panic threshold over the request's list (lab-model.md section 4), and never an empty list. */
    @Override
    public RotationGuard guard() {
        RotationGuard panic = PanicRule.of(panicThresholdPercent).guard();
        return (remaining, total) -> remaining == 0 || panic.keepsAll(remaining, total);
    }

    @Override
    public EndpointState state(Endpoint endpoint) {
        HostMonitor m = monitors[endpoint.id()];
        return new EndpointState(
                endpoint.name(),
                m.isEjected(),
                m.numEjections(),
                m.lastEjectionNanos(),
                m.lastUnejectionNanos(),
                m.consecutive5xx(),
                m.multiplier());
    }

    @Override
    public Map<String, Long> stats() {
        return detector.stats().asMap();
    }

    private static DecisionKind kind(EventAction action) {
        return switch (action) {
            case EJECT -> DecisionKind.EJECT;
            case UNEJECT -> DecisionKind.RETURN;
            case OVERFLOW, UNENFORCED -> DecisionKind.REFUSED;
        };
    }

    private static String reason(OutlierEvent event) {
        return switch (event.action()) {
            case EJECT -> event.type().statSuffix();
            case UNEJECT -> event.uneject().name().toLowerCase(Locale.ROOT);
            case OVERFLOW, UNENFORCED ->
                event.action().jsonName() + " " + event.type().statSuffix();
        };
    }

    @Override
    public List<String> warnings(int endpoints) {
        return PoolWarnings.envoy(config, endpoints);
    }
}
