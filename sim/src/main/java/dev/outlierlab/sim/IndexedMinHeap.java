package dev.outlierlab.sim;

import java.util.Arrays;

/**
 * Items {@code 0..n-1} ordered by a key, a global request number: an indexed binary min-heap, so the event-driven
 * path finds the earliest key in constant time and changes one item's key in {@code log n}. It orders the callers by
 * their next request to a faulty host, and the faulty hosts by their next planned failure. Ties go to the lower item
 * (they cannot happen but at {@link Long#MAX_VALUE}: each request number has one caller and one host). An item
 * without a key has {@link Long#MAX_VALUE}.
 */
final class IndexedMinHeap {
    private final long[] keys;
    private final int[] heap;
    private final int[] position;

    IndexedMinHeap(int items) {
        keys = new long[items];
        heap = new int[items];
        position = new int[items];
        clear();
    }

    /** Every item without a key, in their order. */
    void clear() {
        Arrays.fill(keys, Long.MAX_VALUE);
        for (int c = 0; c < heap.length; c++) {
            heap[c] = c;
            position[c] = c;
        }
    }

    /** The item with the smallest key. */
    int first() {
        return heap[0];
    }

    /** The smallest key ({@link Long#MAX_VALUE} when no item has one). */
    long firstKey() {
        return keys[heap[0]];
    }

    /** The key of {@code item}. */
    long key(int item) {
        return keys[item];
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
