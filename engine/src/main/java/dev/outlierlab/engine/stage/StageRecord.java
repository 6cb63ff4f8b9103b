package dev.outlierlab.engine.stage;

import java.util.List;

/**
 * One recorded run of the request stage (docs/gateway.md): when, for which request and
 * process, in which mode, what it did, and the endpoints concerned (indexes in routing order): those removed
 * ({@code eject}), those ejected but kept by the guard ({@code kept_all}), or those prod would have removed
 * ({@code would_eject}).
 */
public record StageRecord(
        long timeNanos, long request, int process, StageMode mode, StageAction action, List<Integer> endpoints) {

    public StageRecord {
        endpoints = List.copyOf(endpoints);
    }
}
