package dev.outlierlab.sim;

import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Lets the event-driven path run a scenario with per-host capacity ({@code cluster.capacity}) for as long as no host
 * can reach its capacity: then the limiter admits every request, as if there were none, and the run is the same.
 * A host with capacity {@code cap} refuses a request only when it served {@code cap} in the second before it. In one
 * epoch of a caller (a fixed eligible list of {@code E} hosts) a host gets one of every {@code E} of that caller's
 * requests, so over any second the hosts get at most {@code (rps + callers) / Emin + epochs + 1} requests, where
 * {@code Emin} is the smallest list of any caller's epoch in that second and {@code epochs} counts those epochs.
 * The guard checks that bound at every epoch start; when it reaches the smallest capacity the run is given up
 * ({@link CapacityReached}) and made on the per-request path, which models the limiter request by request.
 */
final class CapacityGuard {
    private static final long SECOND = 1_000_000_000L;

    /** The event-driven run was given up: a host might have reached its capacity. */
    static final class CapacityReached extends RuntimeException {
        CapacityReached() {
            super("a host may reach its capacity", null, false, false);
        }
    }

    private final long smallest;
    private final long rps;
    private final int callers;
    /** Epoch starts of the last second: {time, caller, size}. */
    private final ArrayDeque<long[]> recent = new ArrayDeque<>();
    /** expiredSize[c]: the list size of caller c's epoch that began before the last second (-1: none yet). */
    private final int[] expiredSize;

    CapacityGuard(Scenario scenario) {
        this.smallest = scenario.load().capacityRps().values().stream()
                .mapToLong(Long::longValue)
                .filter(c -> c > 0)
                .min()
                .orElse(0);
        this.rps = scenario.traffic().rps();
        this.callers = scenario.traffic().clients();
        this.expiredSize = new int[callers];
        Arrays.fill(expiredSize, -1);
    }

    /** Whether the scenario has a capacity to guard. */
    boolean active() {
        return smallest > 0;
    }

    /** Caller {@code c} starts an epoch of {@code size} hosts at {@code nanos}; throws when a host may be refused. */
    void epoch(int c, int size, long nanos) {
        if (smallest == 0) {
            return;
        }
        recent.addLast(new long[] {nanos, c, size});
        while (recent.peekFirst()[0] <= nanos - SECOND) {
            long[] old = recent.removeFirst();
            expiredSize[(int) old[1]] = (int) old[2];
        }
        long narrowest = Long.MAX_VALUE;
        for (long[] e : recent) {
            if (e[2] > 0) {
                narrowest = Math.min(narrowest, e[2]);
            }
        }
        for (int s : expiredSize) {
            if (s > 0) {
                narrowest = Math.min(narrowest, s);
            }
        }
        if (narrowest == Long.MAX_VALUE) {
            return;
        }
        long bound = (rps + callers) / narrowest + recent.size() + callers + 1;
        if (bound >= smallest) {
            throw new CapacityReached();
        }
    }
}
