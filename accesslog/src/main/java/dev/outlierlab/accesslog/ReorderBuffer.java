package dev.outlierlab.accesslog;

/**
 * The entries of a reorder window, kept sorted by end time (ties in arrival order). A log is nearly in order, so
 * an entry is almost always appended; one that ended earlier is moved back past the few later ones (an insertion
 * from the back), which costs the distance it is out of order, not the size of the window.
 */
final class ReorderBuffer {
    private LogEntry[] ring = new LogEntry[1024];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    LogEntry peek() {
        return size == 0 ? null : ring[head];
    }

    LogEntry poll() {
        if (size == 0) {
            return null;
        }
        LogEntry e = ring[head];
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
        return e;
    }

    void add(LogEntry e) {
        if (size == ring.length) {
            grow();
        }
        int mask = ring.length - 1;
        int i = size;
        long t = e.endEpochNanos();
        while (i > 0 && ring[(head + i - 1) & mask].endEpochNanos() > t) {
            ring[(head + i) & mask] = ring[(head + i - 1) & mask];
            i--;
        }
        ring[(head + i) & mask] = e;
        size++;
    }

    private void grow() {
        LogEntry[] bigger = new LogEntry[ring.length * 2];
        for (int i = 0; i < size; i++) {
            bigger[i] = ring[(head + i) & (ring.length - 1)];
        }
        ring = bigger;
        head = 0;
    }
}
