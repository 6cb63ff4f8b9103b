package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.Arrays;

/**
 * The event-driven path's fold of failures, for a run outside split mode while every host with an active fault has
 * indexed faults only (the even and random patterns), with any number of callers. Between two events (a tick, a fault
 * edge, a step of the series) every caller's list is fixed unless a failure ejects, and a failure can only eject when
 * it makes a consecutive-error counter equal its threshold: any other failure only counts into its host's success-rate
 * buckets and consecutive counters (its caller's: each caller has its own monitors) and into the recorder's counts,
 * none of which anything reads before the next event. So those failures are counted, not reported one by one. For
 * each host with an active fault the fold scans the deciding fault's draws for the host's failures up to the next
 * event ({@link FaultInjector#scanFailures}), puts each to its caller and follows that caller's consecutive counters
 * for the host through them ({@link CallerRuns}), and stops at the first failure, over all hosts and callers, that
 * would reach a threshold: that failure goes to the detector one by one, as before. Every request before it is handed
 * over at once: per caller and host the failures and successes to the caller's monitor as counts with the failures in
 * a row that end its share (all its counters can hold after them: a success resets them, and the monitors do not see
 * each other), per host its requests to the injector in one call (the same counters and draws as one at a time), and
 * the counts to the recorder.
 */
final class FailureFold {
    private final FaultInjector faults;
    private final HostRequests requests;
    private final CallerRuns[] runsOf;
    private final Caller[] callers;
    private final CallerRotation[] rotations;
    private final SendSchedule schedule;
    private final RunRecorder recorder;
    /** The hosts with an active fault in the current segment, and the code each one's failures are reported with. */
    private final int[] hosts;

    private final int[] codes;
    private int count;
    /** Per host, in the current fold: its requests before the fold's start, and how many of them its scan went over. */
    private final long[] before;

    private final long[] scanned;
    private int stopHost = -1;
    private long failed;
    /** The global numbers of the fold's failures, in order, when it collects them. */
    private long[] failedAt = new long[16];

    private int failedCount;
    /** How far a fold scans at first: twice the distance to the last fold's stop, doubled by each fold without one. */
    private long window = MIN_WINDOW;

    private static final long MIN_WINDOW = 1024;

    FailureFold(
            Caller[] callers,
            CallerRotation[] rotations,
            HostRequests requests,
            SendSchedule schedule,
            FaultInjector faults,
            RunRecorder recorder,
            int hostCount) {
        this.callers = callers;
        this.rotations = rotations;
        this.requests = requests;
        this.schedule = schedule;
        this.faults = faults;
        this.recorder = recorder;
        this.runsOf = new CallerRuns[hostCount];
        this.hosts = new int[hostCount];
        this.codes = new int[hostCount];
        this.before = new long[hostCount];
        this.scanned = new long[hostCount];
    }

    /** Takes the hosts with an active fault in the segment the injector is in ({@code faulty[h]}). */
    void enter(boolean[] faulty) {
        count = 0;
        for (int h = 0; h < faulty.length; h++) {
            if (faulty[h]) {
                hosts[count++] = h;
                FaultSpec spec = faults.fault(faults.decidingFault(h));
                codes[h] = Caller.codeOutsideSplit(spec.status(), spec.result());
                if (runsOf[h] == null) {
                    runsOf[h] = new CallerRuns(h, callers, rotations, requests, schedule, recorder);
                }
            }
        }
    }

    /**
     * Folds the requests from global number {@code from} up to {@code limit}, all in every caller's current epoch:
     * returns the number of the first request that would reach the detector (a failure that makes one of its caller's
     * consecutive counters equal its threshold; {@link #stopHost()} says where), or where the fold ended without one:
     * {@code limit}, or sooner, since a fold first looks a window ahead (twice as far as the last fold went to its
     * stop, doubled by each fold that found none), so that the hosts scanned before the one that stops do not scan
     * far past its stop. Every request before it to a host with an active fault is reported to its caller's monitor
     * for the host and counted in the injector and the recorder's per-host counts; {@link #failed()} says how many
     * failed, for the stretch's record, and with {@code collect} which ({@link #failedAt()}).
     */
    long fold(long from, long limit, boolean duringFault, boolean collect) {
        stopHost = -1;
        failed = 0;
        failedCount = 0;
        long end = Math.min(limit, from + window);
        for (int k = 0; k < count; k++) {
            int h = hosts[k];
            scanned[h] = 0;
            before[h] = requests.below(h, from);
            long n = requests.below(h, end) - before[h];
            if (n == 0) {
                continue;
            }
            runsOf[h].begin(from, before[h], codes[h], duringFault, collect);
            long stop = scan(h, n);
            if (stop < n) {
                end = runsOf[h].stopAt();
                stopHost = h;
            }
        }
        for (int k = 0; k < count; k++) {
            int h = hosts[k];
            if (scanned[h] > 0) {
                hand(h, requests.below(h, end) - before[h], end, collect);
            }
        }
        if (collect) {
            Arrays.sort(failedAt, 0, failedCount);
        }
        window = stopHost < 0 ? Math.min(window * 2, Long.MAX_VALUE / 4) : Math.max(MIN_WINDOW, 2 * (end - from));
        return end;
    }

    /** Scans host {@code h}'s next {@code n} requests: returns the offset of the failure it stopped at, or {@code n}. */
    private long scan(int h, long n) {
        long stop = faults.scanFailures(h, n, runsOf[h]);
        scanned[h] = stop;
        return stop;
    }

    /**
     * Hands host {@code h}'s first {@code n} requests of the fold, those before global number {@code end}, over: to the injector, and to its
     * callers' monitors and the recorder as so many failures and successes (scanned again when the fold stopped
     * before the end of its scan).
     */
    private void hand(int h, long n, long end, boolean collect) {
        if (n == 0) {
            return;
        }
        if (n < scanned[h]) {
            scan(h, n);
        }
        faults.skip(h, n);
        CallerRuns runs = runsOf[h];
        failed += runs.hand(end);
        if (collect) {
            int m = runs.failedCount();
            if (failedCount + m > failedAt.length) {
                failedAt = Arrays.copyOf(failedAt, Math.max(failedAt.length * 2, failedCount + m));
            }
            System.arraycopy(runs.failed(), 0, failedAt, failedCount, m);
            failedCount += m;
        }
    }

    /** The host of the request the last fold stopped at, or -1 when it reached its limit. */
    int stopHost() {
        return stopHost;
    }

    /** How many of the requests the last fold handed over failed. */
    long failed() {
        return failed;
    }

    /** The global numbers of those failures, in order, when the fold collected them ({@link #failedCount()} of them). */
    long[] failedAt() {
        return failedAt;
    }

    int failedCount() {
        return failedCount;
    }
}
