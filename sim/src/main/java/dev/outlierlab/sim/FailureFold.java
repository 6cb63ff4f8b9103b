package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.sim.fault.FailureRuns;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultSpec;

/**
 * The event-driven path's fold of failures, for a run with one caller outside split mode while every host with an
 * active fault has indexed faults only (the even and random patterns). Between two events (a tick, a fault edge, a
 * step of the series) the caller's list is fixed unless a failure ejects, and a failure can only eject when it makes
 * a consecutive-error counter equal its threshold: any other failure only counts into its host's success-rate
 * buckets and consecutive counters and into the recorder's counts, none of which anything reads before the next
 * event. So those failures are counted, not reported one by one. For each host with an active fault the fold scans
 * the deciding fault's draws for the host's failures up to the next event ({@link FaultInjector#scanRuns}),
 * follows its consecutive counters through them ({@link HostMonitor#quietHttpResponseCodes}: how many failures in a
 * row reach no threshold from the counters now, and from those a success leaves) and stops at the first failure of
 * any host that would reach one: that failure goes to the detector one by one, as before. Every request before it is
 * handed over at once: each host's failures and successes to its monitor as counts with the failures in a row that
 * end its share (all its counters can hold after them: a success resets them, and the hosts' monitors do not see
 * each other), its requests to the injector in one call (the same counters and draws as one at a time), and the
 * counts to the recorder.
 */
final class FailureFold {
    private final Caller caller;
    private final CallerRotation rotation;
    private final FaultInjector faults;
    private final RunRecorder recorder;
    /** The hosts with an active fault in the current segment, and the code each one's failures are reported with. */
    private final int[] hosts;

    private final int[] codes;
    private int count;
    /** What the scan of each host found: requests scanned, failures before its stop, the last one, its run. */
    private final long[] scanned;

    private final long[] failures;
    private final long[] last;
    private final long[] run;
    private final FailureRuns runs = new FailureRuns();
    private int stopHost = -1;
    private long failed;

    FailureFold(Caller caller, CallerRotation rotation, FaultInjector faults, RunRecorder recorder, int hostCount) {
        this.caller = caller;
        this.rotation = rotation;
        this.faults = faults;
        this.recorder = recorder;
        this.hosts = new int[hostCount];
        this.codes = new int[hostCount];
        this.scanned = new long[hostCount];
        this.failures = new long[hostCount];
        this.last = new long[hostCount];
        this.run = new long[hostCount];
    }

    /** Takes the hosts with an active fault in the segment the injector is in ({@code faulty[h]}). */
    void enter(boolean[] faulty) {
        count = 0;
        for (int h = 0; h < faulty.length; h++) {
            if (faulty[h]) {
                hosts[count++] = h;
                FaultSpec spec = faults.fault(faults.decidingFault(h));
                codes[h] = Caller.codeOutsideSplit(spec.status(), spec.result());
            }
        }
    }

    /**
     * Folds the requests from {@code from} up to {@code limit} (global numbers, which are the caller's), all in the
     * caller's current epoch: returns the number of the first request that would reach the detector (a failure that
     * makes a consecutive counter equal its threshold), or {@code limit}. Every request before it to a host with an
     * active fault is reported to its host and counted in the injector and the recorder's per-host counts;
     * {@link #failed()} says how many failed, for the stretch's record.
     */
    long fold(long from, long limit, boolean duringFault) {
        stopHost = -1;
        failed = 0;
        if (rotation.size() == 0) {
            return limit;
        }
        long end = limit;
        for (int k = 0; k < count; k++) {
            int h = hosts[k];
            scanned[h] = 0;
            if (!rotation.serves(h)) {
                continue;
            }
            long n = rotation.requestsTo(h, from, end);
            if (n == 0) {
                continue;
            }
            rotation.countBefore(h, from, caller.monitors, recorder, duringFault);
            long stop = scan(h, n);
            if (stop < n) {
                end = rotation.nthRequestTo(h, from, stop);
                stopHost = h;
            }
        }
        for (int k = 0; k < count; k++) {
            int h = hosts[k];
            if (scanned[h] > 0) {
                hand(h, from, rotation.requestsTo(h, from, end), duringFault);
            }
        }
        return end;
    }

    /**
     * Scans host {@code h}'s next {@code n} requests for its failures, up to the first that would reach the detector:
     * returns its offset (0: the host's first request of the fold), or {@code n}. Keeps how many requests it scanned,
     * how many failed before the stop, where the last of those was and how many failures in a row end there.
     */
    private long scan(int h, long n) {
        int code = codes[h];
        long stop =
                faults.scanRuns(h, n, caller.quietFailures(h, code, false), caller.quietFailures(h, code, true), runs);
        scanned[h] = stop;
        failures[h] = runs.failures();
        last[h] = runs.lastOffset();
        run[h] = runs.run();
        return stop;
    }

    /**
     * Hands host {@code h}'s first {@code n} requests from {@code from} over, all of them: to the injector, and to
     * its monitor and the recorder as so many failures and successes (scanned again when the fold stopped before
     * the end of its scan).
     */
    private void hand(int h, long from, long n, boolean duringFault) {
        if (n == 0) {
            return;
        }
        if (n < scanned[h]) {
            scan(h, n);
        }
        faults.skip(h, n);
        long f = failures[h];
        long successes = n - f;
        long trailing = f > 0 && last[h] == n - 1 ? run[h] : 0;
        caller.foldedRequests(h, codes[h], f, successes, trailing);
        recorder.hostFailures(h, f, duringFault);
        recorder.hostSuccesses(h, successes, duringFault);
        failed += f;
        rotation.handedOver(h, rotation.nthRequestTo(h, from, n - 1));
    }

    /** The host of the request the last fold stopped at, or -1 when it reached its limit. */
    int stopHost() {
        return stopHost;
    }

    /** How many of the requests the last fold handed over failed. */
    long failed() {
        return failed;
    }
}
