package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;

/**
 * The event-driven path's plan for hosts whose active faults are all indexed (the even and random patterns, see
 * {@code FailureSequence.indexed}): instead of putting each of their requests to the fault injector, it finds the
 * next request each such host fails ({@link FaultInjector#passesAhead}, a tight scan of the fault's draws), so the
 * requests before it are counted as successes like any other host's, and the injector is told how many there were in
 * one call ({@link FaultInjector#skip}). The work then follows failures and the scan of draws, not requests. A
 * host's requests are those of every caller's rotation, merged in send order, counted with {@link
 * CallerRotation#requestsTo}; its next failure is the request at which that count passes the fault's passes.
 */
final class PassBudget {
    private final CallerRotation[] rotations;
    private final SendSchedule schedule;
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

    PassBudget(CallerRotation[] rotations, SendSchedule schedule, FaultInjector faults, int hostCount) {
        this.rotations = rotations;
        this.schedule = schedule;
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
            faults.skip(h, requestsTo(h, told[h], i));
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
        long ahead = requestsTo(h, i, bound);
        long passes = faults.passesAhead(h, ahead);
        long at = passes >= ahead
                ? Long.MAX_VALUE
                : rotations.length == 1 ? single(h, i, passes) : merged(h, i, bound, passes);
        nextFail.update(h, at);
    }

    /** One caller: its request after {@code passes} of its requests to {@code h} from request {@code i} on. */
    private long single(int h, long i, long passes) {
        return rotations[0].nthRequestTo(h, i, passes);
    }

    /**
     * Several callers: the smallest x with {@code passes + 1} requests to h in [i, x), found by halving, first near
     * where the callers' rates put it (each caller sends to h once in its list's size, every {@code callers}-th
     * request), then over the whole range if the guess misses; the failing request is x - 1.
     */
    private long merged(int h, long i, long bound, long passes) {
        int callers = rotations.length;
        double rate = 0;
        int widest = 1;
        for (CallerRotation r : rotations) {
            if (r.serves(h)) {
                rate += 1.0 / r.size();
                widest = Math.max(widest, r.size());
            }
        }
        long lo = i + 1;
        long hi = bound;
        long guess = i + (long) Math.ceil((passes + 1) * callers / rate);
        long slack = 2L * callers * (widest + 1);
        long a = Math.max(lo, guess - slack);
        long b = Math.min(hi, guess + slack);
        if (a < b && requestsTo(h, i, a - 1) <= passes && requestsTo(h, i, b) > passes) {
            lo = a;
            hi = b;
        }
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (requestsTo(h, i, mid) > passes) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo - 1;
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

    /** Requests to {@code h} with global numbers in {@code [from, to)}, over every caller's rotation. */
    private long requestsTo(int h, long from, long to) {
        long n = 0;
        for (int c = 0; c < rotations.length; c++) {
            n += rotations[c].requestsTo(
                    h, schedule.callerRequestsBefore(c, from), schedule.callerRequestsBefore(c, to));
        }
        return n;
    }
}
