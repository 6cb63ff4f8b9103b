package dev.outlierlab.sim.routing;

import java.util.PriorityQueue;

/**
 * Envoy's earliest-deadline-first scheduler ({@code source/common/upstream/edf_scheduler.h}, {@code EdfScheduler}),
 * as the locality-weighted pick uses it: each entry's next deadline is the current time plus {@code 1 / weight}, the
 * earliest deadline is picked (ties in insertion order) and added back. {@link #createWithPicks} is Envoy's
 * {@code createWithPicks}: the scheduler as if {@code picks} picks had been made, each entry's weight augmented by
 * {@code 1e-13} for the emulated part, the leftover picks made one by one.
 */
final class EdfScheduler {
    private record Entry(double deadline, long order, int index, double weight) {}

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) ->
            a.deadline != b.deadline ? Double.compare(a.deadline, b.deadline) : Long.compare(a.order, b.order));
    private double currentTime;
    private long orderOffset;

    private EdfScheduler() {}

    /**
     * @param weights each entry's weight (all positive); entry {@code i} is picked as {@code i}
     * @param picks   Envoy's seed, an unsigned 32-bit number, taken modulo {@code 429496729}
     */
    static EdfScheduler createWithPicks(double[] weights, long picks) {
        picks = (picks & 0xFFFFFFFFL) % 429_496_729L;
        EdfScheduler s = new EdfScheduler();
        int n = weights.length;
        double sum = 0;
        for (double w : weights) {
            sum += w + 1e-13;
        }
        long picksSoFar = 0;
        double maxPickTime = 0;
        for (int i = 0; i < n; i++) {
            double weight = weights[i] + 1e-13;
            long floor = (long) (weight * picks / sum) & 0xFFFFFFFFL;
            if (floor > 0 && floor / weight >= picks / sum) {
                floor--;
            }
            maxPickTime = Math.max(maxPickTime, floor / weight);
            s.queue.add(new Entry((floor + 1) / weight, i, i, weights[i]));
            picksSoFar += floor;
        }
        s.currentTime = maxPickTime;
        s.orderOffset = n;
        while (picksSoFar < picks) {
            s.pickAndAdd();
            picksSoFar++;
        }
        return s;
    }

    /** {@code pickAndAdd}: the entry with the earliest deadline, added back one period later. */
    int pickAndAdd() {
        Entry e = queue.poll();
        currentTime = e.deadline;
        queue.add(new Entry(currentTime + 1.0 / e.weight, orderOffset++, e.index, e.weight));
        return e.index;
    }
}
