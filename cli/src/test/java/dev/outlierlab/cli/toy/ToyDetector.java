package dev.outlierlab.cli.toy;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.EjectionListener;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A toy detector on the engine's contract: an endpoint with {@code failures} failures in a row is out for a fixed
 * time, then back with its count cleared. No cap: its rotation guard is the simulator's. The simulator keeps its
 * load balancer in step with the decisions it is told of ({@link DetectorListener}), so each ejection and return is
 * told there as well as to the contract's ejection listeners.
 */
final class ToyDetector implements Detector {
    private final ToySettings settings;
    private final List<String> names;
    private final DetectorListener events;
    private final long[] numEjections;
    private final int[] inARow;
    private final long[] outUntil;
    private final List<EjectionListener> listeners = new ArrayList<>();
    private int ejectedNow;
    private long ejections;

    ToyDetector(ToySettings settings, List<String> names, DetectorListener events) {
        int endpoints = names.size();
        this.settings = settings;
        this.names = List.copyOf(names);
        this.events = events;
        this.numEjections = new long[endpoints];
        this.inARow = new int[endpoints];
        this.outUntil = new long[endpoints];
        Arrays.fill(outUntil, -1);
    }

    long ejections() {
        return ejections;
    }

    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        if (!Outcome.isFailure(outcome)) {
            inARow[endpoint] = 0;
            return;
        }
        if (++inARow[endpoint] >= settings.failures() && outUntil[endpoint] < 0) {
            outUntil[endpoint] = nowNanos + settings.ejectionNanos();
            ejectedNow++;
            ejections++;
            numEjections[endpoint]++;
            events.onEvent(new OutlierEvent(
                    nowNanos,
                    names.get(endpoint),
                    EventAction.EJECT,
                    EjectionType.CONSECUTIVE_5XX,
                    null,
                    null,
                    null,
                    null,
                    null,
                    0,
                    numEjections[endpoint],
                    false,
                    null));
            for (EjectionListener l : listeners) {
                l.onEjected(endpoint, nowNanos);
            }
        }
    }

    @Override
    public long nextDueNanos() {
        long next = NEVER;
        for (long t : outUntil) {
            if (t >= 0) {
                next = Math.min(next, t);
            }
        }
        return next;
    }

    @Override
    public void runDue(long nowNanos) {
        for (int e = 0; e < outUntil.length; e++) {
            if (outUntil[e] >= 0 && outUntil[e] <= nowNanos) {
                events.onEvent(new OutlierEvent(
                        nowNanos,
                        names.get(e),
                        EventAction.UNEJECT,
                        null,
                        null,
                        null,
                        null,
                        null,
                        UnejectReason.EJECTION_TIME_ELAPSED,
                        settings.ejectionNanos(),
                        numEjections[e],
                        false,
                        null));
                outUntil[e] = -1;
                inARow[e] = 0;
                ejectedNow--;
                for (EjectionListener l : listeners) {
                    l.onReturned(e, nowNanos);
                }
            }
        }
    }

    @Override
    public int endpointCount() {
        return outUntil.length;
    }

    @Override
    public boolean isEjected(int endpoint) {
        return outUntil[endpoint] >= 0;
    }

    @Override
    public boolean anyEjected() {
        return ejectedNow > 0;
    }

    @Override
    public void addEjectionListener(EjectionListener listener) {
        listeners.add(listener);
    }
}
