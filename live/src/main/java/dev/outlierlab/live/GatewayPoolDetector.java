package dev.outlierlab.live;

import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway profile: the engine's {@link GatewayDetector} (seed 004's weakest-link remover) for this
 * process, behind the engine's {@code Detector} contract. Outcomes are judged as they are applied; returns
 * happen at the first look at or after their time. The guard is the gateway's: the candidate list never
 * becomes empty. Membership changes use the detector's own {@code addEndpoint} / {@code removeEndpoint}: the
 * other endpoints keep their windows, counts and ejections, an added one starts empty, and a removed one that
 * was ejected leaves without a return, as in Envoy's detector (the gateway spec is silent on membership).
 */
final class GatewayPoolDetector extends ListedPoolDetector {
    private final GatewayConfig config;
    private final DecisionSink sink;
    private GatewayDetector detector;
    private long ejectionsConsecutive;
    private long ejectionsSuccessRate;
    private long returns;

    private final int maxEjectionPercent;

    GatewayPoolDetector(GatewayConfig config, int maxEjectionPercent, DecisionSink sink) {
        this.config = config;
        this.maxEjectionPercent = maxEjectionPercent;
        this.sink = sink;
    }

    @Override
    public String profile() {
        return "gateway";
    }

    /** The gateway's routing: its endpoints in order, each next one the fallback. */
    @Override
    public boolean triesInOrder() {
        return true;
    }

    @Override
    public void add(Endpoint endpoint, long nowNanos) {
        int index;
        if (detector == null) {
            detector = new GatewayDetector(config, List.of(endpoint.name()), 0, this::onEvent);
            detector.setMaxEjectionPercent(maxEjectionPercent);
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

    private void onEvent(GatewayEvent event) {
        Endpoint endpoint = members.get(event.endpoint());
        if (event.action() == GatewayAction.RETURN) {
            returns++;
            members.returned(event.endpoint(), event.timeNanos());
            sink.decided(endpoint, DecisionKind.RETURN, event.timeNanos(), "ejection_time_elapsed", event);
            return;
        }
        members.ejected(event.endpoint());
        switch (event.reason()) {
            case CONSECUTIVE -> ejectionsConsecutive++;
            case SUCCESS_RATE -> ejectionsSuccessRate++;
        }
        sink.decided(
                endpoint, DecisionKind.EJECT, event.timeNanos(), event.reason().outputName(), event);
    }

    @Override
    GatewayDetector engine() {
        return detector;
    }

    @Override
    public EndpointState state(Endpoint endpoint) {
        int i = members.index(endpoint);
        long ejections = members.ejections(i);
        return new EndpointState(
                endpoint.name(),
                detector.isEjected(i),
                ejections,
                ejections == 0 ? -1 : detector.ejectedAtNanos(i),
                members.lastReturnNanos(i),
                detector.consecutiveFailures(i),
                0);
    }

    @Override
    public Map<String, Long> stats() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("ejections_active", detector == null ? 0L : (long) detector.ejectedCount());
        m.put("ejections_consecutive", ejectionsConsecutive);
        m.put("ejections_success_rate", ejectionsSuccessRate);
        m.put("returns", returns);
        m.put("ejections_overflow", detector == null ? 0L : detector.capRefusals());
        return m;
    }

    @Override
    public List<String> warnings(int endpoints) {
        return PoolWarnings.gateway(maxEjectionPercent, endpoints);
    }
}
