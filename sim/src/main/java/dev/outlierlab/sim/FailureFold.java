package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.Arrays;

/**
 * The event-driven path's fold of failures, for a run with one caller outside split mode while every host with an
 * active fault has indexed faults only (the even and random patterns). Between two events (a tick, a fault edge, a
 * step of the series) the caller's list is fixed unless a failure ejects, and a failure can only eject when it makes
 * a consecutive-error counter equal its threshold: any other failure only counts into its host's success-rate
 * buckets and consecutive counters and into the recorder's counts, none of which anything reads before the next
 * event. So those failures are counted, not reported one by one. For each host with an active fault the fold scans
 * the deciding fault's draws for the host's failures up to the next event ({@link FaultInjector#failureAhead}),
 * follows its consecutive counters through them ({@link HostMonitor#quietHttpResponseCodes}: how many failures in a
 * row reach no threshold from the counters now, and from those a success leaves) and stops at the first failure of
 * any host that would reach one: that failure goes to the detector one by one, as before. Every request before it is
 * handed over in runs: each host's successes and failures in a row to its monitor, in their order at that host (the
 * order that decides its counters; the hosts' monitors do not see each other), its requests to the injector in one
 * call (the same counters and draws as one at a time), and the failures to the recorder as counts.
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
    /** offsets[h][0..found[h]): where host h's failures are among its requests of the fold (0: its first). */
    private final long[][] offsets;

    private final int[] found;
    private int stopHost = -1;
    private long failed;

    FailureFold(Caller caller, CallerRotation rotation, FaultInjector faults, RunRecorder recorder, int hostCount) {
        this.caller = caller;
        this.rotation = rotation;
        this.faults = faults;
        this.recorder = recorder;
        this.hosts = new int[hostCount];
        this.codes = new int[hostCount];
        this.offsets = new long[hostCount][16];
        this.found = new int[hostCount];
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
     * makes a consecutive counter equal its threshold), or {@code limit}. Every request before it is reported to its
     * host and counted in the injector and the recorder's per-host counts, but for the successes that the rotation
     * counts when its epoch ends; {@link #failed()} says how many of them failed, for the stretch's record.
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
            found[h] = 0;
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
            if (rotation.serves(h)) {
                hand(h, from, rotation.requestsTo(h, from, end), duringFault);
            }
        }
        return end;
    }

    /**
     * Finds host {@code h}'s failures among its next {@code n} requests, up to the first that would reach the
     * detector: returns its offset, or {@code n}.
     */
    private long scan(int h, long n) {
        int code = codes[h];
        long quiet = caller.quietFailures(h, code, false);
        long fresh = caller.quietFailures(h, code, true);
        long run = 0;
        long last = -1;
        long o = faults.failureAhead(h, 0, n);
        while (o < n) {
            if (o != last + 1) {
                run = 0;
                quiet = fresh;
            }
            if (++run > quiet) {
                return o;
            }
            store(h, o);
            last = o;
            o = faults.failureAhead(h, o + 1, n);
        }
        return n;
    }

    private void store(int h, long o) {
        long[] os = offsets[h];
        if (found[h] == os.length) {
            os = Arrays.copyOf(os, os.length * 2);
            offsets[h] = os;
        }
        os[found[h]++] = o;
    }

    /**
     * Hands host {@code h}'s first {@code n} requests from {@code from} over: to the injector, and its failures among
     * them, with the successes before each run of them, to its monitor and the recorder.
     */
    private void hand(int h, long from, long n, boolean duringFault) {
        if (n == 0) {
            return;
        }
        faults.skip(h, n);
        long[] os = offsets[h];
        int m = found[h];
        HostMonitor monitor = caller.monitors[h];
        long done = 0;
        int a = 0;
        while (a < m && os[a] < n) {
            int b = a + 1;
            while (b < m && os[b] == os[b - 1] + 1 && os[b] < n) {
                b++;
            }
            long successes = os[a] - done;
            if (successes > 0) {
                monitor.putSuccesses(successes);
                recorder.hostSuccesses(h, successes, duringFault);
            }
            long run = b - a;
            caller.failQuietly(h, codes[h], run);
            recorder.hostFailures(h, run, duringFault);
            failed += run;
            done = os[b - 1] + 1;
            a = b;
        }
        if (done > 0) {
            rotation.handedOver(h, rotation.nthRequestTo(h, from, done - 1));
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
}
