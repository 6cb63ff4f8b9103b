package dev.outlierlab.engine.stage;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.ScheduledWork;
import java.util.ArrayList;
import java.util.List;

/**
 * The outlier-ejection stage of a request, shared by the simulator and the live wrapper so that neither
 * re-implements it: given the request's candidate list in routing order, it first runs the detector's due
 * work (returns), then, by {@link StageMode}, removes the ejected endpoints in place (prod), or only notes
 * them (shadow), unless the {@link RotationGuard} keeps the whole list. The list's order is kept. After
 * each {@link #apply} the action and the endpoints concerned can be read, and {@link #record} makes a
 * {@link StageRecord} of them; {@code apply} itself allocates nothing. Not thread-safe.
 */
public final class CandidateStage {
    private final StageMode mode;
    private final EjectionState state;
    private final ScheduledWork work;
    private final RotationGuard guard;
    private final int[] concerned;
    private int concernedCount;
    private StageAction action = StageAction.NONE;

    /**
     * @param work the detector's due work, run before each list is filtered; null when the caller runs it
     *             (as the Envoy simulation does, interleaved with health checks)
     */
    public CandidateStage(StageMode mode, EjectionState state, ScheduledWork work, RotationGuard guard) {
        this.mode = mode;
        this.state = state;
        this.work = work;
        this.guard = guard;
        this.concerned = new int[state.endpointCount()];
    }

    public StageMode mode() {
        return mode;
    }

    /**
     * Filters {@code candidates[0, count)} in place and returns how many remain at the front. In off mode
     * the list is returned untouched and the detector is not consulted.
     */
    public int apply(int[] candidates, int count, long nowNanos) {
        action = StageAction.NONE;
        concernedCount = 0;
        if (mode == StageMode.OFF || count == 0) {
            return count;
        }
        if (work != null && nowNanos >= work.nextDueNanos()) {
            work.runDue(nowNanos);
        }
        for (int i = 0; i < count; i++) {
            if (state.isEjected(candidates[i])) {
                concerned[concernedCount++] = candidates[i];
            }
        }
        if (concernedCount == 0) {
            return count;
        }
        if (guard.keepsAll(count - concernedCount, count)) {
            if (mode == StageMode.PROD) {
                action = StageAction.KEPT_ALL;
            } else {
                concernedCount = 0;
            }
            return count;
        }
        if (mode == StageMode.SHADOW) {
            action = StageAction.WOULD_EJECT;
            return count;
        }
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int endpoint = candidates[i];
            if (!state.isEjected(endpoint)) {
                candidates[kept++] = endpoint;
            }
        }
        action = StageAction.EJECT;
        return kept;
    }

    /** What the last {@link #apply} did. */
    public StageAction action() {
        return action;
    }

    /** How many endpoints the last action concerns (0 for {@link StageAction#NONE}). */
    public int concernedCount() {
        return concernedCount;
    }

    /** The k-th endpoint the last action concerns, in routing order. */
    public int concerned(int k) {
        if (k >= concernedCount) {
            throw new IndexOutOfBoundsException(k);
        }
        return concerned[k];
    }

    /** A record of the last action, or null when it was {@link StageAction#NONE}. */
    public StageRecord record(long timeNanos, long request, int process) {
        if (action == StageAction.NONE) {
            return null;
        }
        List<Integer> endpoints = new ArrayList<>(concernedCount);
        for (int k = 0; k < concernedCount; k++) {
            endpoints.add(concerned[k]);
        }
        return new StageRecord(timeNanos, request, process, mode, action, endpoints);
    }
}
