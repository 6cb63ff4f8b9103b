package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import java.util.Arrays;

/**
 * The event-driven path's plan for hosts whose active faults are all indexed (the even and random patterns, see
 * {@code FailureSequence.indexed}): instead of putting each of their requests to the fault injector, it finds the
 * next request each such host fails ({@link FaultInjector#passesAhead}, a tight scan of the fault's draws), so the
 * requests before it are counted as successes like any other host's, and the injector is told how many there were in
 * one call ({@link FaultInjector#skip}). The work then follows failures and the scan of draws, not requests. A
 * host's requests are those of every caller's rotation, merged in send order, counted by {@link HostRequests}; its
 * next failure is the request whose rank among them passes the fault's passes, found there by arithmetic.
 *
 * <p>A plan keeps what it counted while the host's requests stay the same ({@link HostRequests#stamp}): the host's
 * requests before the planned failure are the ones before the plan plus its passes, and those before the bound stay
 * as counted, so a failure that goes as planned is told and planned again without counting the host's requests
 * anew; where the next failure is a few requests ahead, it is found by a step per request rather than by rank.
 */
final class PassBudget {
    /** A failure at most this many requests ahead is found by stepping through the host's requests. */
    private static final long STEPS = 16;

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
    /** The host's requests below told[h] (valid while the host's stamp is planStamp[h] and told[h] is planFrom[h]). */
    private final long[] planBefore;

    private final long[] planFrom;
    private final long[] planStamp;
    /** The planned failure's global number and the host's requests below it (under planStamp[h]). */
    private final long[] planAt;

    private final long[] planAtBelow;
    /** The host's requests below boundAt[h] under the stamp boundStamp[h]. */
    private final long[] boundAt;

    private final long[] boundBelow;
    private final long[] boundStamp;

    PassBudget(HostRequests requests, FaultInjector faults, int hostCount) {
        this.requests = requests;
        this.faults = faults;
        this.hosts = new int[hostCount];
        this.told = new long[hostCount];
        this.nextFail = new IndexedMinHeap(hostCount);
        this.planBefore = new long[hostCount];
        this.planFrom = new long[hostCount];
        this.planStamp = new long[hostCount];
        this.planAt = new long[hostCount];
        this.planAtBelow = new long[hostCount];
        this.boundAt = new long[hostCount];
        this.boundBelow = new long[hostCount];
        this.boundStamp = new long[hostCount];
        Arrays.fill(planStamp, -1);
        Arrays.fill(boundStamp, -1);
    }

    /** Takes the hosts with an active fault from request {@code i} on. */
    void enter(boolean[] faulty, long i) {
        count = 0;
        nextFail.clear();
        for (int h = 0; h < faulty.length; h++) {
            if (faulty[h]) {
                hosts[count++] = h;
                told[h] = i;
                planStamp[h] = -1;
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
            long from = told[h];
            long stamp = requests.stamp(h);
            if (planStamp[h] == stamp && planFrom[h] == from) {
                long below = i == planAt[h] ? planAtBelow[h] : requests.below(h, i);
                faults.skip(h, below - planBefore[h]);
                planBefore[h] = below;
                planFrom[h] = i;
            } else {
                faults.skip(h, requests.between(h, from, i));
                planStamp[h] = -1;
            }
            told[h] = i;
        }
    }

    /** The request {@code i}, which failed at {@code h}, has been put to the injector. */
    void failed(int h, long i) {
        told[h] = i + 1;
        if (planStamp[h] == requests.stamp(h) && planFrom[h] == i) {
            planBefore[h]++;
            planFrom[h] = i + 1;
        }
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
        long stamp = requests.stamp(h);
        long before;
        if (planStamp[h] == stamp && planFrom[h] == i) {
            before = planBefore[h];
        } else {
            before = requests.below(h, i);
            planStamp[h] = stamp;
            planFrom[h] = i;
            planBefore[h] = before;
        }
        if (boundStamp[h] != stamp || boundAt[h] != bound) {
            boundStamp[h] = stamp;
            boundAt[h] = bound;
            boundBelow[h] = requests.below(h, bound);
        }
        long ahead = boundBelow[h] - before;
        long passes = faults.passesAhead(h, ahead);
        long at;
        if (passes >= ahead) {
            at = Long.MAX_VALUE;
        } else if (passes < STEPS && requests.groupCount(h) > 1) {
            at = requests.walk(h, i, passes);
        } else {
            at = requests.rank(h, before + passes);
        }
        planAt[h] = at;
        planAtBelow[h] = before + passes;
        nextFail.update(h, at);
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
