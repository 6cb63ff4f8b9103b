package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;

/**
 * The event-driven path's plan for hosts whose active faults are all indexed (the even and random patterns, see
 * {@code FailureSequence.indexed}): instead of putting each of their requests to the fault injector, it finds the
 * next request each such host fails ({@link FaultInjector#passesAhead}, a tight scan of the fault's draws), so the
 * requests before it are counted as successes like any other host's, and the injector is told how many there were in
 * one call ({@link FaultInjector#skip}). The work then follows failures and the scan of draws, not requests. A
 * host's requests are those of every caller's rotation, merged in send order, counted by {@link HostRequests}; its
 * next failure is the request whose rank among them passes the fault's passes, found there by arithmetic.
 */
final class PassBudget {
    private final HostRequests requests;
    private final FaultInjector faults;
    private final int[] hosts;
    private int count;
    /** told[h]: the requests to host h before this global number are counted in the injector. */
    private final long[] told;
    /**
     * The hosts by the global number of their next failing request (Long.MAX_VALUE before the bound, and for a host
     * without an active fault), so that a failure costs the logarithm of the hosts, not their number.
     */
    private final IndexedMinHeap nextFail;

    PassBudget(HostRequests requests, FaultInjector faults, int hostCount) {
        this.requests = requests;
        this.faults = faults;
        this.hosts = new int[hostCount];
        this.told = new long[hostCount];
        this.nextFail = new IndexedMinHeap(hostCount);
    }

    /** Takes the hosts with an active fault from request {@code i} on. */
    void enter(boolean[] faulty, long i) {
        count = 0;
        nextFail.clear();
        for (int h = 0; h < faulty.length; h++) {
            if (faulty[h]) {
                hosts[count++] = h;
                told[h] = i;
            }
        }
    }

    /** Tells the injector of every such host's requests before {@code i}, all passes, under the current rotations. */
    void syncAll(long i) {
        for (int k = 0; k < count; k++) {
            sync(hosts[k], i);
        }
    }

    /** Tells the injector of host {@code h}'s requests before {@code i}, all passes. */
    void sync(int h, long i) {
        if (i > told[h]) {
            faults.skip(h, requests.between(h, told[h], i));
            told[h] = i;
        }
    }

    /** The request {@code i}, which failed at {@code h}, has been put to the injector. */
    void failed(int h, long i) {
        told[h] = i + 1;
    }

    /** Plans every host's next failure from request {@code i} up to {@code bound} (the current rotations' end). */
    void planAll(long i, long bound) {
        for (int k = 0; k < count; k++) {
            plan(hosts[k], i, bound);
        }
    }

    /** Plans host {@code h}'s next failure at or after request {@code i}, before {@code bound}. */
    void plan(int h, long i, long bound) {
        sync(h, i);
        long before = requests.below(h, i);
        long ahead = requests.below(h, bound) - before;
        long passes = faults.passesAhead(h, ahead);
        nextFail.update(h, passes >= ahead ? Long.MAX_VALUE : requests.rank(h, before + passes));
    }

    /**
     * The host of the earliest planned failure, or -1 when none is planned. Two hosts never share one (a request goes
     * to one host), so the heap's order is the only one.
     */
    int earliest() {
        return nextFail.firstKey() == Long.MAX_VALUE ? -1 : nextFail.first();
    }

    long nextFail(int h) {
        return nextFail.key(h);
    }
}
