package dev.outlierlab.live;

import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Envoy profile: the engine's {@link OutlierDetector} (Envoy v1.40.2's {@code DetectorImpl}) with ticks
 * at every multiple of {@code interval} from the pool's start, run before any outcome at or after their
 * time, exactly as the lab's trace replay runs them. A status is reported as Envoy's router reports it (a
 * connect success, then the code); local failures map as {@link LocalFailure} says. The panic rule is the
 * lab model's: {@code 100 * healthy / members < panic_threshold}.
 */
final class EnvoyPoolDetector implements PoolDetector {
    private final OutlierDetectionConfig config;
    private final OutlierDetector detector;
    private final long panicThresholdPercent;
    private final Map<String, Endpoint> byName = new HashMap<>();
    private HostMonitor[] monitors = new HostMonitor[16];
    private long nextTickNanos;

    EnvoyPoolDetector(OutlierDetectionConfig config, long panicThresholdPercent, RandomSource random,
            DecisionSink sink) {
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
        LocalFailure failure = LocalFailure.ofCode(code);
        if (failure == null) {
            if (config.splitExternalLocalOriginErrors()) {
                monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, nowNanos);
            }
            monitor.putHttpResponseCode(code, nowNanos);
        } else {
            monitor.putResult(failure == LocalFailure.TIMEOUT ? RequestResult.LOCAL_ORIGIN_TIMEOUT
                    : RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, nowNanos);
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

    @Override
    public boolean inPanic() {
        int members = detector.hosts().size();
        if (members == 0 || panicThresholdPercent == 0) {
            return false;
        }
        int healthy = members - detector.ejectedCount();
        return 100.0 * healthy / members < panicThresholdPercent;
    }

    @Override
    public EndpointState state(Endpoint endpoint) {
        HostMonitor m = monitors[endpoint.id()];
        return new EndpointState(endpoint.name(), m.isEjected(), m.numEjections(), m.lastEjectionNanos(),
                m.lastUnejectionNanos(), m.consecutive5xx(), m.multiplier());
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
            case OVERFLOW, UNENFORCED -> event.action().jsonName() + " " + event.type().statSuffix();
        };
    }
}
