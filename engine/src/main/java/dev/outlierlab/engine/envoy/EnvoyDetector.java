package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.EjectionListener;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Envoy's {@link OutlierDetector} behind the profile-neutral {@link Detector} contract. Endpoints are the
 * hosts in the order given; outcomes go to each host's {@link HostMonitor} the way Envoy's router reports
 * them (a status through {@code putHttpResponseCode}, a timeout as {@code LOCAL_ORIGIN_TIMEOUT}, a connect
 * failure and a reset as {@code LOCAL_ORIGIN_CONNECT_FAILED}, as the router's {@code onUpstreamReset}
 * does, connect successes as themselves); the due work is the interval tick at {@code k * interval} for
 * k = 1, 2, ... up to {@code lastTickNanos}. The detector's own events still reach the
 * {@link DetectorListener} with every number; ejection listeners hear each {@code EJECT} and {@code UNEJECT}
 * after it. Wrapping changes nothing Envoy decides.
 */
public final class EnvoyDetector implements Detector {
    private final OutlierDetector detector;
    private final HostMonitor[] monitors;
    private final Map<String, Integer> index = new HashMap<>();
    private final List<EjectionListener> listeners = new ArrayList<>();
    private final long intervalNanos;
    private final long lastTickNanos;
    private long nextTickNanos;

    /**
     * @param hosts         the endpoints, in routing and evaluation order
     * @param events        Envoy's events and interval evaluations, with their numbers
     * @param lastTickNanos no tick runs after this time (a simulation's duration; {@link Long#MAX_VALUE} live)
     */
    public EnvoyDetector(
            OutlierDetectionConfig config,
            RandomSource random,
            List<String> hosts,
            DetectorListener events,
            long lastTickNanos) {
        this(config, random, hosts, events, lastTickNanos, EnvoyVersion.DEFAULT);
    }

    /** As above, with the rules of the given Envoy release where releases differ. */
    public EnvoyDetector(
            OutlierDetectionConfig config,
            RandomSource random,
            List<String> hosts,
            DetectorListener events,
            long lastTickNanos,
            EnvoyVersion version) {
        this.detector = new OutlierDetector(config, random, new Forwarder(events), version);
        this.monitors = new HostMonitor[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            monitors[h] = detector.addHost(hosts.get(h));
            index.put(hosts.get(h), h);
        }
        this.intervalNanos = config.intervalNanos();
        this.lastTickNanos = lastTickNanos;
        this.nextTickNanos = intervalNanos;
    }

    /** The wrapped detector, for Envoy-only calls (statistics, active health checks). */
    public OutlierDetector outlierDetector() {
        return detector;
    }

    /** The monitor of endpoint {@code endpoint}. */
    public HostMonitor monitor(int endpoint) {
        return monitors[endpoint];
    }

    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        HostMonitor monitor = monitors[endpoint];
        switch (outcome) {
            case Outcome.TIMEOUT -> monitor.putResult(RequestResult.LOCAL_ORIGIN_TIMEOUT, nowNanos);
            case Outcome.CONNECT_FAILED, Outcome.RESET ->
                monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, nowNanos);
            case Outcome.CONNECT_SUCCESS -> monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, nowNanos);
            case Outcome.CONNECT_SUCCESS_FINAL ->
                monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL, nowNanos);
            default -> monitor.putHttpResponseCode(Outcome.http(outcome), nowNanos);
        }
    }

    @Override
    public long nextDueNanos() {
        return nextTickNanos <= lastTickNanos ? nextTickNanos : NEVER;
    }

    @Override
    public void runDue(long nowNanos) {
        while (nextTickNanos <= lastTickNanos && nextTickNanos <= nowNanos) {
            detector.tick(nextTickNanos);
            nextTickNanos += intervalNanos;
        }
    }

    @Override
    public int endpointCount() {
        return monitors.length;
    }

    @Override
    public boolean isEjected(int endpoint) {
        return monitors[endpoint].isEjected();
    }

    @Override
    public void addEjectionListener(EjectionListener listener) {
        listeners.add(listener);
    }

    /** Passes Envoy's events on, then tells ejection listeners of ejections and returns. */
    private final class Forwarder implements DetectorListener {
        private final DetectorListener events;

        Forwarder(DetectorListener events) {
            this.events = events;
        }

        @Override
        public void onEvent(OutlierEvent event) {
            events.onEvent(event);
            if (event.action() == EventAction.EJECT) {
                int endpoint = index.get(event.host());
                for (EjectionListener l : listeners) {
                    l.onEjected(endpoint, event.timeNanos());
                }
            } else if (event.action() == EventAction.UNEJECT) {
                int endpoint = index.get(event.host());
                for (EjectionListener l : listeners) {
                    l.onReturned(endpoint, event.timeNanos());
                }
            }
        }

        @Override
        public boolean wantsIntervals() {
            return events.wantsIntervals();
        }

        @Override
        public void onInterval(IntervalEvaluation evaluation) {
            events.onInterval(evaluation);
        }
    }
}
