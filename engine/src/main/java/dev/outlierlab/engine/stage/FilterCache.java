package dev.outlierlab.engine.stage;

import dev.outlierlab.engine.EjectionState;

/**
 * What a {@link CandidateStage} decided for each offset of one fixed candidate array (a router's own list,
 * where the list at an offset never changes), valid while the detector's ejections stay as they were
 * ({@link EjectionState#ejectionVersion}). Ejections change a few times a minute and
 * requests arrive thousands of times a second, so nearly every request of a round-robin rotation finds its
 * list already filtered. Entries are made the first time an offset is seen and reused after that: nothing
 * is allocated per request.
 */
final class FilterCache {
    /** One offset's decision: the action, the list that remains and the endpoints concerned. */
    static final class Entry {
        long version = -1;
        int count;
        int action;
        int kept;
        int concernedCount;
        int[] keptList;
        int[] concernedList;

        boolean holds(long ejectionVersion, int candidates) {
            return version == ejectionVersion && count == candidates;
        }
    }

    private int[] from;
    private Entry[] entries = new Entry[0];

    /** The entry for {@code from[offset, offset + count)}, made (empty) if there is none yet. */
    Entry entry(int[] candidates, int offset, int count) {
        if (candidates != from) {
            from = candidates;
            entries = new Entry[candidates.length];
        }
        Entry e = entries[offset];
        if (e == null || e.keptList.length < count) {
            e = new Entry();
            e.keptList = new int[count];
            e.concernedList = new int[count];
            entries[offset] = e;
        }
        return e;
    }
}
