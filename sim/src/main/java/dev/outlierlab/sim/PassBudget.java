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
    /** nextFail[h]: the global number of host h's next failing request, or Long.MAX_VALUE before the bound. */
    private final long[] nextFail;
    /**
     * The hosts by their next failure, a binary min-heap over {@code nextFail} ({@code heap[0]} the earliest), and each
     * host's place in it, so that a failure costs the logarithm of the faulty hosts, not their number.
     */
    private final int[] heap;

    private final int[] place;

    PassBudget(CallerRotation[] rotations, SendSchedule schedule, FaultInjector faults, int hostCount) {
        this.rotations = rotations;
        this.schedule = schedule;
        this.faults = faults;
        this.hosts = new int[hostCount];
        this.told = new long[hostCount];
        this.nextFail = new long[hostCount];
        this.heap = new int[hostCount];
        this.place = new int[hostCount];
    }

    /** Takes the hosts with an active fault from request {@code i} on. */
    void enter(boolean[] faulty, long i) {
        count = 0;
        for (int h = 0; h < faulty.length; h++) {
            if (faulty[h]) {
                heap[count] = h;
                place[h] = count;
                hosts[count++] = h;
                told[h] = i;
                nextFail[h] = Long.MAX_VALUE;
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
        long was = nextFail[h];
        nextFail[h] = at;
        if (at < was) {
            up(place[h]);
        } else if (at > was) {
            down(place[h]);
        }
    }

    private void up(int k) {
        int h = heap[k];
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            int ph = heap[parent];
            if (nextFail[ph] <= nextFail[h]) {
                break;
            }
            heap[k] = ph;
            place[ph] = k;
            k = parent;
        }
        heap[k] = h;
        place[h] = k;
    }

    private void down(int k) {
        int h = heap[k];
        while (true) {
            int child = 2 * k + 1;
            if (child >= count) {
                break;
            }
            if (child + 1 < count && nextFail[heap[child + 1]] < nextFail[heap[child]]) {
                child++;
            }
            int ch = heap[child];
            if (nextFail[h] <= nextFail[ch]) {
                break;
            }
            heap[k] = ch;
            place[ch] = k;
            k = child;
        }
        heap[k] = h;
        place[h] = k;
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
        return count == 0 || nextFail[heap[0]] == Long.MAX_VALUE ? -1 : heap[0];
    }

    long nextFail(int h) {
        return nextFail[h];
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
