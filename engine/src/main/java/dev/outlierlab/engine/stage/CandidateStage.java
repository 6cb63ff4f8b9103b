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
    private static final int NONE = StageAction.NONE.ordinal();
    private static final int EJECT = StageAction.EJECT.ordinal();
    private static final int KEPT_ALL = StageAction.KEPT_ALL.ordinal();
    private static final int WOULD_EJECT = StageAction.WOULD_EJECT.ordinal();
    private static final StageAction[] ACTIONS = StageAction.values();
    /**
     * The last action's ordinal in {@link StageAction}: an int, not a reference, because it changes at nearly
     * every request while something is ejected, and storing a reference into an old object costs a garbage
     * collector's write barrier each time.
     */
    private int action;

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
        action = NONE;
        concernedCount = 0;
        if (mode == StageMode.OFF || count == 0) {
            return count;
        }
        if (work != null && nowNanos >= work.nextDueNanos()) {
            work.runDue(nowNanos);
        }
        if (!state.anyEjected()) {
            return count;
        }
        return filter(candidates, count);
    }

    /** The part of {@link #apply} that looks at each candidate, kept apart so that apply's common path is small. */
    private int filter(int[] candidates, int count) {
        int foundCount = 0;
        for (int i = 0; i < count; i++) {
            int endpoint = candidates[i];
            if (state.isEjected(endpoint)) {
                concerned[foundCount++] = endpoint;
            }
        }
        concernedCount = foundCount;
        if (foundCount == 0) {
            return count;
        }
        if (guard.keepsAll(count - foundCount, count)) {
            if (mode == StageMode.PROD) {
                action = KEPT_ALL;
            } else {
                concernedCount = 0;
            }
            return count;
        }
        if (mode == StageMode.SHADOW) {
            action = WOULD_EJECT;
            return count;
        }
        // concerned[0, foundCount) is the ejected part of the list, in its order: keep the rest
        int kept = 0;
        int next = 0;
        for (int i = 0; i < count; i++) {
            int endpoint = candidates[i];
            if (next < foundCount && endpoint == concerned[next]) {
                next++;
            } else {
                candidates[kept++] = endpoint;
            }
        }
        action = EJECT;
        return kept;
    }

    /** What the last {@link #apply} did. */
    public StageAction action() {
        return ACTIONS[action];
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
        if (action == NONE) {
            return null;
        }
        List<Integer> endpoints = new ArrayList<>(concernedCount);
        for (int k = 0; k < concernedCount; k++) {
            endpoints.add(concerned[k]);
        }
        return new StageRecord(timeNanos, request, process, mode, action(), endpoints);
    }
}
