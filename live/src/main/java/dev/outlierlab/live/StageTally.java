package dev.outlierlab.live;

import dev.outlierlab.engine.stage.StageAction;
import java.util.concurrent.atomic.LongAdder;

/** A {@link LivePool}'s count of the requests its stage filtered, and of what the stage did, by action. */
final class StageTally {
    private final LongAdder filtered = new LongAdder();
    private final LongAdder[] byAction = new LongAdder[StageAction.values().length];

    StageTally() {
        for (int i = 0; i < byAction.length; i++) {
            byAction[i] = new LongAdder();
        }
    }

    /** Counts one request filtered. */
    void filtering() {
        filtered.increment();
    }

    /** Requests filtered so far. */
    long filtered() {
        return filtered.sum();
    }

    /** Counts the stage's {@code action} on one request. */
    void acted(StageAction action) {
        byAction[action.ordinal()].increment();
    }

    /** Requests on which the stage took {@code action}. */
    long count(StageAction action) {
        return byAction[action.ordinal()].sum();
    }
}
