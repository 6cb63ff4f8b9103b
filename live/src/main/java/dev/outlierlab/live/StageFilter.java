package dev.outlierlab.live;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.RotationGuard;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the engine's request stage ({@link CandidateStage}, shared with the simulator) over one request's
 * candidates, lock-free: each candidate's published ejection flag is read once into a snapshot, so the
 * stage sees one consistent picture even while decisions are being published; the guard keeps the list
 * from ever becoming empty. The candidate list itself must not change during the call (the pool passes its
 * immutable member snapshot).
 */
final class StageFilter {
    private StageFilter() {}

    /** The filtered list and what the stage did, with the endpoints concerned, in routing order. */
    record Filtered(List<Endpoint> candidates, StageAction action, List<String> named) {}

    static Filtered filter(
            LivePool pool, List<Endpoint> candidates, StageMode mode, RotationGuard guard, long nowNanos) {
        int size = candidates.size();
        boolean[] ejected = new boolean[size];
        boolean any = false;
        for (int i = 0; i < size; i++) {
            Endpoint e = candidates.get(i);
            if (e.pool() != pool) {
                throw pool.foreign(e);
            }
            ejected[i] = e.isEjected();
            any |= ejected[i];
        }
        if (!any || mode == StageMode.OFF) {
            return new Filtered(candidates, StageAction.NONE, List.of());
        }
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        CandidateStage stage = new CandidateStage(mode, new Snapshot(ejected), null, guard);
        int kept = stage.apply(order, size, nowNanos);
        if (stage.action() == StageAction.NONE) {
            return new Filtered(candidates, StageAction.NONE, List.of());
        }
        List<String> named = new ArrayList<>(stage.concernedCount());
        for (int k = 0; k < stage.concernedCount(); k++) {
            named.add(candidates.get(stage.concerned(k)).name());
        }
        if (kept == size) {
            return new Filtered(candidates, stage.action(), named);
        }
        List<Endpoint> remaining = new ArrayList<>(kept);
        for (int i = 0; i < kept; i++) {
            remaining.add(candidates.get(order[i]));
        }
        return new Filtered(List.copyOf(remaining), stage.action(), named);
    }

    /** The request's candidates' ejection flags as read once. */
    private record Snapshot(boolean[] ejected) implements EjectionState {
        @Override
        public int endpointCount() {
            return ejected.length;
        }

        @Override
        public boolean isEjected(int endpoint) {
            return ejected[endpoint];
        }
    }
}
