package dev.outlierlab.sim;

import java.util.Arrays;

/**
 * The callers ordered by a key, the global number of each one's next request to a faulty host: an indexed binary
 * min-heap, so the event-driven path finds the cluster's next such request among many callers in {@code log P}
 * and changes one caller's key in the same. Ties go to the lower caller (they cannot happen: each request number
 * has one caller).
 */
final class CallerQueue {
    private final long[] keys;
    private final int[] heap;
    private final int[] position;

    CallerQueue(int callers) {
        keys = new long[callers];
        Arrays.fill(keys, Long.MAX_VALUE);
        heap = new int[callers];
        position = new int[callers];
        for (int c = 0; c < callers; c++) {
            heap[c] = c;
            position[c] = c;
        }
    }

    /** The caller with the smallest key. */
    int first() {
        return heap[0];
    }

    /** The smallest key ({@link Long#MAX_VALUE} when no caller has a faulty request). */
    long firstKey() {
        return keys[heap[0]];
    }

    void update(int caller, long key) {
        long old = keys[caller];
        keys[caller] = key;
        if (key < old) {
            up(position[caller]);
        } else if (key > old) {
            down(position[caller]);
        }
    }

    private boolean less(int a, int b) {
        return keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
    }

    private void up(int at) {
        int c = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (!less(c, heap[parent])) {
                break;
            }
            place(heap[parent], at);
            at = parent;
        }
        place(c, at);
    }

    private void down(int at) {
        int c = heap[at];
        int n = heap.length;
        while (true) {
            int child = 2 * at + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], c)) {
                break;
            }
            place(heap[child], at);
            at = child;
        }
        place(c, at);
    }

    private void place(int caller, int at) {
        heap[at] = caller;
        position[caller] = at;
    }
}
