package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.Arrays;

/**
 * One caller's round robin as arithmetic, for the event-driven path: while the caller's eligible list stays the
 * same (an epoch), its request number {@code j} goes to {@code eligible[(j + c) mod E]}, so the requests to the host
 * at position {@code p} are the numbers {@code j} with {@code j + c = p (mod E)}. Requests to hosts with an active
 * fault are handed out one at a time in order ({@link #nextFaultyRequest()}); every other request of the epoch is a
 * success that is only counted when the epoch ends ({@link #flush}), into the host's monitor in one call
 * ({@link HostMonitor#putSuccesses}) and into the recorder's per-host counts. Mirrors {@code LoadBalancer.pick} and
 * Envoy's {@code RoundRobinLoadBalancer}, whose rotation this counts rather than walks.
 */
final class CallerRotation {
    private final int caller;
    private final int callers;
    private final int[] hosts;
    private final boolean[] faultyAt;
    private final int[] faultyPositions;
    /** positionOf[h]: the host's position in the epoch's eligible list, -1 when it is not in it. */
    private final int[] positionOf;

    /** countedTo[p]: the epoch's slots at position p below this are counted (or were a failure, handled apart). */
    private final long[] countedTo;

    private int size;
    private int faultyCount;
    /** The epoch's first slot: slot = request number + caller number. */
    private long startSlot;
    /** Every position's slots below this are counted. */
    private long flushedTo;
    /** The next faulty request's slot is cycleBase + faultyPositions[cursor]. */
    private long cycleBase;

    private int cursor;
    private long version;
    private boolean panic;
    private int ejected;

    CallerRotation(int caller, int callers, int hostCount) {
        this.caller = caller;
        this.callers = callers;
        this.hosts = new int[hostCount];
        this.faultyAt = new boolean[hostCount];
        this.faultyPositions = new int[hostCount];
        this.positionOf = new int[hostCount];
        this.countedTo = new long[hostCount];
        Arrays.fill(positionOf, -1);
    }

    /**
     * Starts an epoch at the caller's request number {@code firstRequest}, with the balancer's eligible list now;
     * {@code faulty[h]} says which hosts have an active fault for the whole epoch.
     */
    void start(long firstRequest, LoadBalancer balancer, boolean[] faulty) {
        for (int p = 0; p < size; p++) {
            positionOf[hosts[p]] = -1;
        }
        size = balancer.eligibleCount();
        panic = balancer.inPanic();
        ejected = balancer.ejectedCount();
        version = balancer.version();
        faultyCount = 0;
        for (int p = 0; p < size; p++) {
            int h = balancer.eligibleAt(p);
            hosts[p] = h;
            positionOf[h] = p;
            faultyAt[p] = faulty[h];
            if (faulty[h]) {
                faultyPositions[faultyCount++] = p;
            }
        }
        startSlot = firstRequest + caller;
        flushedTo = startSlot;
        Arrays.fill(countedTo, 0, size, startSlot);
        if (faultyCount > 0) {
            long residue = startSlot % size;
            cycleBase = startSlot - residue;
            cursor = 0;
            while (cursor < faultyCount && faultyPositions[cursor] < residue) {
                cursor++;
            }
            if (cursor == faultyCount) {
                cursor = 0;
                cycleBase += size;
            }
        }
    }

    /** The global number of the epoch's next request to a faulty host, or {@link Long#MAX_VALUE} when there is none. */
    long nextFaultyRequest() {
        if (faultyCount == 0) {
            return Long.MAX_VALUE;
        }
        long j = cycleBase + faultyPositions[cursor] - caller;
        return j * callers + caller;
    }

    /** The host that request goes to. */
    int nextFaultyHost() {
        return hosts[faultyPositions[cursor]];
    }

    /** Moves past that request. */
    void advance() {
        if (++cursor == faultyCount) {
            cursor = 0;
            cycleBase += size;
        }
    }

    /**
     * Counts the epoch's successes, the requests to hosts without an active fault up to the caller's request
     * number {@code endRequest}, into their monitors and the recorder; the epoch then continues from there. Returns
     * whether the caller sent any request to a host in that range (any request of an epoch with a host), which
     * tells its health checker that the cluster carries traffic.
     */
    boolean flush(long endRequest, HostMonitor[] monitors, RunRecorder recorder, boolean duringFault) {
        long endSlot = endRequest + caller;
        if (size == 0 || endSlot <= flushedTo) {
            flushedTo = Math.max(flushedTo, endSlot);
            return false;
        }
        long whole = endSlot / size - flushedTo / size;
        int toRest = (int) (endSlot % size);
        int fromRest = (int) (flushedTo % size);
        for (int p = 0; p < size; p++) {
            if (faultyAt[p]) {
                continue;
            }
            if (countedTo[p] == flushedTo) {
                // slots s in [flushedTo, endSlot) with s mod size == p
                long n = whole + (toRest > p ? 1 : 0) - (fromRest > p ? 1 : 0);
                if (n > 0) {
                    monitors[hosts[p]].putSuccesses(n);
                    recorder.hostSuccesses(hosts[p], n, duringFault);
                }
                countedTo[p] = endSlot;
            } else {
                count(p, endSlot, monitors, recorder, duringFault);
            }
        }
        flushedTo = endSlot;
        return true;
    }

    /**
     * The caller's request {@code request}, to {@code host}, failed: the host's successes before it in this epoch are
     * counted now (so that its monitor sees them first), the failure itself is not, and the other hosts' successes
     * stay pending until the next {@link #flush}, which nothing before it reads. A failure then costs the same
     * whatever the size of the list.
     */
    void failedAt(int host, long request, HostMonitor[] monitors, RunRecorder recorder, boolean duringFault) {
        int p = positionOf[host];
        long slot = request + caller;
        count(p, slot, monitors, recorder, duringFault);
        countedTo[p] = Math.max(countedTo[p], slot + 1);
    }

    /**
     * Counts {@code host}'s pending successes before the caller's request number {@code request}, so that its monitor
     * is up to date there (the host is in the epoch's list).
     */
    void countBefore(int host, long request, HostMonitor[] monitors, RunRecorder recorder, boolean duringFault) {
        count(positionOf[host], request + caller, monitors, recorder, duringFault);
    }

    /**
     * {@code host}'s requests up to the caller's request number {@code request} (with it) have been reported and
     * recorded by the caller of this method; the pending successes start after it.
     */
    void handedOver(int host, long request) {
        int p = positionOf[host];
        countedTo[p] = Math.max(countedTo[p], request + caller + 1);
    }

    /** Counts the successes at position {@code p} from its last count up to (not with) {@code endSlot}. */
    private void count(int p, long endSlot, HostMonitor[] monitors, RunRecorder recorder, boolean duringFault) {
        long from = countedTo[p];
        if (endSlot <= from) {
            return;
        }
        long n = upTo(endSlot, p) - upTo(from, p);
        if (n > 0) {
            monitors[hosts[p]].putSuccesses(n);
            recorder.hostSuccesses(hosts[p], n, duringFault);
        }
        countedTo[p] = endSlot;
    }

    /**
     * How many of the caller's request numbers in {@code [fromRequest, toRequest)} go to {@code host} in this epoch:
     * the slots {@code j + caller} in that range at the host's position modulo the list's size.
     */
    long requestsTo(int host, long fromRequest, long toRequest) {
        int p = positionOf[host];
        if (p < 0 || toRequest <= fromRequest) {
            return 0;
        }
        return upTo(toRequest + caller, p) - upTo(fromRequest + caller, p);
    }

    /**
     * The caller's request number of its {@code m}-th request (from 0) to {@code host} at or after request number
     * {@code fromRequest} in this epoch, or -1 when the host is not in its list.
     */
    long nthRequestTo(int host, long fromRequest, long m) {
        int p = positionOf[host];
        if (p < 0) {
            return -1;
        }
        long slot = fromRequest + caller;
        long first = slot + Math.floorMod(p - slot, (long) size);
        return first + m * size - caller;
    }

    /** The host at position {@code p} of the epoch's list. */
    int hostAt(int p) {
        return hosts[p];
    }

    /** Whether {@code host} is in the epoch's list. */
    boolean serves(int host) {
        return positionOf[host] >= 0;
    }

    /** Slots below {@code slot} at position {@code p}. */
    private long upTo(long slot, int p) {
        return slot / size + (slot % size > p ? 1 : 0);
    }

    /** Whether the balancer's eligible list may have changed since the epoch started. */
    boolean changed(LoadBalancer balancer) {
        return balancer.version() != version;
    }

    /** The epoch's eligible count: 0 when the caller finds no host. */
    int size() {
        return size;
    }

    /** Whether the caller was in panic at the epoch's start (for the whole epoch). */
    boolean panic() {
        return panic;
    }

    /** The caller's ejected hosts during the epoch. */
    int ejected() {
        return ejected;
    }
}
