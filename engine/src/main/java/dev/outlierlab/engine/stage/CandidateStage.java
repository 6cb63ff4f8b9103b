package dev.outlierlab.engine.stage;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.ScheduledWork;
import java.util.ArrayList;
import java.util.List;

/**
 * The outlier-ejection stage of a request, shared by the simulator and the live wrapper so that neither
 * re-implements it: given the request's candidate list in routing order, it first runs the detector's due
 * work (returns), then, by {@link StageMode}, removes the ejected endpoints (prod), or only notes
 * them (shadow), unless the {@link RotationGuard} keeps the whole list. The list's order is kept. After
 * each {@link #apply} the action and the endpoints concerned can be read, and {@link #record} makes a
 * {@link StageRecord} of them; {@code apply} itself allocates nothing. Not thread-safe.
 */
public final class CandidateStage {
    private final StageMode mode;
    private final EjectionState state;
    private final ScheduledWork work;
    private final RotationGuard guard;
    private final FilterCache cache = new FilterCache();
    /** The endpoints the last action concerns: {@link #ownConcerned} or a cached decision's. */
    private int[] concerned = new int[0];

    private int concernedCount;
    /** Where an uncached filter builds the list that remains and the endpoints concerned; grow with the lists. */
    private int[] scratch = new int[0];

    private int[] ownConcerned = new int[0];
    /** Where the last apply's remaining candidates are: {@code list[listStart, listStart + kept)}. */
    private int[] list;

    private int listStart;
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
    }

    public StageMode mode() {
        return mode;
    }

    /**
     * Filters {@code candidates[0, count)} in place and returns how many remain at the front. In off mode
     * the list is returned untouched and the detector is not consulted.
     */
    public int apply(int[] candidates, int count, long nowNanos) {
        int kept = apply(candidates, 0, count, false, nowNanos);
        if (action == EJECT) {
            System.arraycopy(list, listStart, candidates, 0, kept);
        }
        return kept;
    }

    /**
     * Filters the request's candidates {@code from[offset, offset + count)} without changing them and returns
     * how many remain; they are then {@link #list()} from {@link #listStart()}: the given list itself unless
     * the stage removed some (the action is {@link StageAction#EJECT}). With {@code fixedList} the caller
     * promises that {@code from} at this offset holds the same list at every call (a router's own list, see
     * {@code CandidateRouter.listsFixed}): the stage then remembers its decision per offset until the
     * detector's ejections change, and a request whose list it has seen costs a lookup. In off mode the
     * detector is not consulted.
     */
    public int apply(int[] from, int offset, int count, boolean fixedList, long nowNanos) {
        action = NONE;
        concernedCount = 0;
        list = from;
        listStart = offset;
        if (mode == StageMode.OFF || count == 0) {
            return count;
        }
        if (work != null && nowNanos >= work.nextDueNanos()) {
            work.runDue(nowNanos);
        }
        if (!state.anyEjected()) {
            return count;
        }
        return applyWithEjections(from, offset, count, fixedList);
    }

    /** {@link #apply} once something is ejected: kept apart so that apply's common path stays small. */
    private int applyWithEjections(int[] from, int offset, int count, boolean fixedList) {
        long version = fixedList ? state.ejectionVersion() : -1;
        if (version < 0) {
            if (scratch.length < count) {
                scratch = new int[count];
                ownConcerned = new int[count];
            }
            return filter(from, offset, count, scratch, ownConcerned);
        }
        FilterCache.Entry e = cache.entry(from, offset, count);
        if (!e.holds(version, count)) {
            e.kept = filter(from, offset, count, e.keptList, e.concernedList);
            e.action = action;
            e.concernedCount = concernedCount;
            e.count = count;
            e.version = version;
        }
        action = e.action;
        concerned = e.concernedList;
        concernedCount = e.concernedCount;
        if (action == EJECT) {
            list = e.keptList;
            listStart = 0;
        }
        return e.kept;
    }

    /**
     * Looks at each candidate, in one pass: the ejected ones to {@code concernedInto}, the others to
     * {@code into}; then decides the action by the mode and the guard. Kept apart so that apply's common path
     * is small.
     */
    private int filter(int[] from, int offset, int count, int[] into, int[] concernedInto) {
        int found = 0;
        int kept = 0;
        for (int i = offset, end = offset + count; i < end; i++) {
            int endpoint = from[i];
            if (state.isEjected(endpoint)) {
                concernedInto[found++] = endpoint;
            } else {
                into[kept++] = endpoint;
            }
        }
        concerned = concernedInto;
        concernedCount = found;
        if (found == 0) {
            return count;
        }
        if (guard.keepsAll(kept, count)) {
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
        action = EJECT;
        list = into;
        listStart = 0;
        return kept;
    }

    /** The array holding the last {@link #apply}'s remaining candidates, from {@link #listStart()}. */
    public int[] list() {
        return list;
    }

    /** Where the last {@link #apply}'s remaining candidates start in {@link #list()}. */
    public int listStart() {
        return listStart;
    }

    /** {@link #action()}'s ordinal in {@link StageAction}, for counting without a lookup. */
    public int actionOrdinal() {
        return action;
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
