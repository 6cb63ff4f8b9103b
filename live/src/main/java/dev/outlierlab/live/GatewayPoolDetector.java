package dev.outlierlab.live;

import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.stage.RotationGuard;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway profile: the engine's {@link GatewayDetector} (seed 004's weakest-link remover) for this
 * process, behind the engine's {@code Detector} contract. Outcomes are judged as they are applied; returns
 * happen at the first look at or after their time. The guard is the gateway's: the candidate list never
 * becomes empty. The engine's gateway detector has a fixed list of endpoints, so a membership change starts
 * a new detector over the new members: every window starts empty and ejections in force end (each reported
 * as a return with reason {@code membership_change}).
 */
final class GatewayPoolDetector implements PoolDetector {
    private final GatewayConfig config;
    private final DecisionSink sink;
    private final List<Endpoint> members = new ArrayList<>();
    private int[] indexById = new int[16];
    private GatewayDetector detector;
    private long[] ejections = new long[0];
    private long[] lastReturnNanos = new long[0];
    private long ejectionsConsecutive;
    private long ejectionsSuccessRate;
    private long returns;

    GatewayPoolDetector(GatewayConfig config, DecisionSink sink) {
        this.config = config;
        this.sink = sink;
    }

    @Override
    public String profile() {
        return "gateway";
    }

    @Override
    public void add(Endpoint endpoint, long nowNanos) {
        rebuild(nowNanos, () -> members.add(endpoint));
    }

    @Override
    public void remove(Endpoint endpoint, long nowNanos) {
        rebuild(nowNanos, () -> members.remove(endpoint));
    }

    private void rebuild(long nowNanos, Runnable change) {
        if (detector != null) {
            detector.runDue(nowNanos);
            for (int i = 0; i < members.size(); i++) {
                if (detector.isEjected(i)) {
                    lastReturnNanos[i] = nowNanos;
                    returns++;
                    sink.decided(members.get(i), DecisionKind.RETURN, nowNanos, "membership_change", null);
                }
            }
        }
        Map<Endpoint, long[]> kept = new LinkedHashMap<>();
        for (int i = 0; i < members.size(); i++) {
            kept.put(members.get(i), new long[] {ejections[i], lastReturnNanos[i]});
        }
        change.run();
        List<String> names = new ArrayList<>(members.size());
        ejections = new long[members.size()];
        lastReturnNanos = new long[members.size()];
        for (int i = 0; i < members.size(); i++) {
            Endpoint e = members.get(i);
            names.add(e.name());
            if (e.id() >= indexById.length) {
                indexById = Arrays.copyOf(indexById, Math.max(indexById.length * 2, e.id() + 1));
            }
            indexById[e.id()] = i;
            long[] history = kept.get(e);
            ejections[i] = history == null ? 0 : history[0];
            lastReturnNanos[i] = history == null ? -1 : history[1];
        }
        detector = names.isEmpty() ? null : new GatewayDetector(config, names, 0, this::onEvent);
    }

    private void onEvent(GatewayEvent event) {
        Endpoint endpoint = members.get(event.endpoint());
        if (event.action() == GatewayAction.RETURN) {
            returns++;
            lastReturnNanos[event.endpoint()] = event.timeNanos();
            sink.decided(endpoint, DecisionKind.RETURN, event.timeNanos(), "ejection_time_elapsed", event);
            return;
        }
        ejections[event.endpoint()]++;
        switch (event.reason()) {
            case CONSECUTIVE -> ejectionsConsecutive++;
            case SUCCESS_RATE -> ejectionsSuccessRate++;
        }
        sink.decided(endpoint, DecisionKind.EJECT, event.timeNanos(), event.reason().outputName(), event);
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
        boolean ejected = detector.isEjected(i);
        return new EndpointState(endpoint.name(), ejected, ejections[i],
                ejections[i] == 0 ? -1 : detector.ejectedAtNanos(i), lastReturnNanos[i],
                detector.consecutiveFailures(i), 0);
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("ejections_active", detector == null ? 0L : (long) detector.ejectedCount());
        m.put("ejections_consecutive", ejectionsConsecutive);
        m.put("ejections_success_rate", ejectionsSuccessRate);
        m.put("returns", returns);
        return m;
    }
}
