package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.gateway.EjectionReason;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.GatewayListener;
import dev.outlierlab.engine.stage.StageAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects what a gateway run produces: every detector event of every process, in the order they happen,
 * the request and attempt counts, the stage actions, and the time each endpoint spends ejected per process.
 */
final class GatewayRecorder implements GatewayListener {
    private final long durationNanos;
    private final GatewayObserver observer;
    private final List<GatewayEvent> events = new ArrayList<>();
    private final long[] attemptsPerEndpoint;
    private final long[][] ejectedNanos;
    private final long[][] ejectedSince;
    /** Stages by {@link StageAction} ordinal: counted without a switch, once per request. */
    private final long[] stages = new long[StageAction.values().length];

    private long requests;
    private long failedRequests;
    private long failedAttempts;
    private long requestsDuringFault;
    private long failedDuringFault;
    private long consecutive;
    private long successRate;
    private long returns;

    GatewayRecorder(int processes, int endpoints, long durationNanos, GatewayObserver observer) {
        this.durationNanos = durationNanos;
        this.observer = observer;
        this.attemptsPerEndpoint = new long[endpoints];
        this.ejectedNanos = new long[processes][endpoints];
        this.ejectedSince = new long[processes][endpoints];
        for (long[] row : ejectedSince) {
            Arrays.fill(row, -1);
        }
    }

    @Override
    public void onEvent(GatewayEvent event) {
        events.add(event);
        int p = event.process();
        int e = event.endpoint();
        if (event.action() == GatewayAction.RETURN) {
            returns++;
            ejectedNanos[p][e] += event.timeNanos() - ejectedSince[p][e];
            ejectedSince[p][e] = -1;
        } else {
            ejectedSince[p][e] = event.timeNanos();
            if (event.reason() == EjectionReason.CONSECUTIVE) {
                consecutive++;
            } else {
                successRate++;
            }
        }
        observer.onEvent(event);
    }

    /** A stage's action, by its ordinal in {@link StageAction}. */
    void stage(int action) {
        stages[action]++;
    }

    void attempt(int endpoint, boolean failed) {
        attemptsPerEndpoint[endpoint]++;
        if (failed) {
            failedAttempts++;
        }
    }

    void request(boolean failed, boolean duringFault) {
        requests++;
        if (failed) {
            failedRequests++;
        }
        if (duringFault) {
            requestsDuringFault++;
            if (failed) {
                failedDuringFault++;
            }
        }
    }

    GatewayRunResult finish(GatewayScenario scenario, long belowMinStdev) {
        List<List<Long>> ejected = new ArrayList<>();
        for (int p = 0; p < ejectedNanos.length; p++) {
            List<Long> row = new ArrayList<>();
            for (int e = 0; e < ejectedNanos[p].length; e++) {
                long open = ejectedSince[p][e] >= 0 ? durationNanos - ejectedSince[p][e] : 0;
                row.add(ejectedNanos[p][e] + open);
            }
            ejected.add(row);
        }
        List<Long> perEndpoint = new ArrayList<>();
        long attempts = 0;
        for (long a : attemptsPerEndpoint) {
            perEndpoint.add(a);
            attempts += a;
        }
        GatewaySummary summary = new GatewaySummary(
                requests,
                attempts,
                failedRequests,
                failedAttempts,
                requestsDuringFault,
                failedDuringFault,
                perEndpoint,
                consecutive,
                successRate,
                returns,
                stages[StageAction.EJECT.ordinal()],
                stages[StageAction.KEPT_ALL.ordinal()],
                stages[StageAction.WOULD_EJECT.ordinal()],
                ejected,
                belowMinStdev);
        return new GatewayRunResult(scenario, summary, events);
    }
}
