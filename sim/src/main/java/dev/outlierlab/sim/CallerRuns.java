package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.sim.fault.FailureScan;
import java.util.Arrays;

/**
 * One host's failures in a fold ({@link FailureFold}), each put to the caller that sent it and followed through that
 * caller's consecutive-error counters for the host. Every caller has its own monitors, so a failure can only reach a
 * threshold through its own caller's counters, which only that caller's requests to the host move. The fault's draws
 * follow the host's requests in send order over all callers; the host's {@code t}-th request is a global number
 * found by {@link HostRequests} ({@link HostRequests#rank}, or a few steps on from the last failure's where the
 * callers' lists have several sizes), and its caller is that number modulo the callers. Between events a caller's
 * requests to the host are {@code C x E} global numbers apart ({@code C} callers, {@code E} hosts in its list), so a
 * failure goes on its caller's run of failures in a row exactly when its caller's last failure at the host is that far
 * back; its first failure in the scan goes on the run the counters hold now when it is the caller's first request to
 * the host in the scan. A run of failures in a row may go {@code threshold - count - 1} further from the counters now,
 * {@code threshold - 1} after a success ({@link HostMonitor#quietHttpResponseCodes}); the scan stops at the first
 * failure that would go further. With one caller this is the host's own run of failures in a row.
 */
final class CallerRuns implements FailureScan {
    /** A failure at most this many requests after the last is found by stepping through the host's requests. */
    private static final long STEPS = 16;

    private final int host;
    private final int clients;
    private final Caller[] callers;
    private final CallerRotation[] rotations;
    private final HostRequests requests;
    private final SendSchedule schedule;
    private final RunRecorder recorder;
    /** The scan: the code failures are reported with, its first global number, the host's requests before it. */
    private int code;

    private long from;
    private long before;
    private boolean duringFault;
    private boolean collect;
    /** The deciding fault's request number of the host's first request in the scan. */
    private long origin;
    /** The host's rank and global number of the last failure found, -1 before the first. */
    private long lastRank;

    private long lastGlobal;
    /** The global number of the failure the scan stopped at. */
    private long stopAt;
    /** The callers met in the scan (a failure of theirs), in order, and the scan each was last met in. */
    private final int[] met;

    private int metCount;
    private final long[] metIn;
    private long scan;
    /** Per caller: failures counted, the global number of the last, its run, what its run may reach now and after a success. */
    private final long[] failures;

    private final long[] last;
    private final long[] run;
    private final long[] allow;
    private final long[] fresh;
    /** The global numbers of the failures counted, when the scan collects them. */
    private long[] failed = new long[16];

    private int failedCount;
    private long total;

    CallerRuns(
            int host,
            Caller[] callers,
            CallerRotation[] rotations,
            HostRequests requests,
            SendSchedule schedule,
            RunRecorder recorder) {
        this.host = host;
        this.clients = callers.length;
        this.callers = callers;
        this.rotations = rotations;
        this.requests = requests;
        this.schedule = schedule;
        this.recorder = recorder;
        this.met = new int[clients];
        this.metIn = new long[clients];
        this.failures = new long[clients];
        this.last = new long[clients];
        this.run = new long[clients];
        this.allow = new long[clients];
        this.fresh = new long[clients];
        Arrays.fill(metIn, -1);
    }

    /**
     * Sets up a scan of the host's requests from global number {@code from}, before which the host has {@code before}
     * requests (under the current rotations), its failures reported with {@code code}; {@code collect}: keep the
     * failures' global numbers ({@link #failed()}).
     */
    void begin(long from, long before, int code, boolean duringFault, boolean collect) {
        this.from = from;
        this.before = before;
        this.code = code;
        this.duringFault = duringFault;
        this.collect = collect;
    }

    @Override
    public void start(long first) {
        origin = first;
        scan++;
        metCount = 0;
        lastRank = -1;
        failedCount = 0;
        total = 0;
    }

    @Override
    public boolean add(long k) {
        long t = before + (k - origin);
        long x = globalOf(t);
        int c = (int) (x % clients);
        long period = (long) clients * rotations[c].size();
        if (metIn[c] != scan) {
            meet(c, x, period);
        }
        boolean goesOn = last[c] == x - period;
        long r = goesOn ? run[c] + 1 : 1;
        long a = goesOn ? allow[c] : fresh[c];
        if (r > a) {
            stopAt = x;
            return false;
        }
        run[c] = r;
        allow[c] = a;
        last[c] = x;
        failures[c]++;
        total++;
        if (collect) {
            if (failedCount == failed.length) {
                failed = Arrays.copyOf(failed, failedCount * 2);
            }
            failed[failedCount++] = x;
        }
        return true;
    }

    /** The global number of the host's request of rank {@code t}, after the last failure's ({@link #lastRank}). */
    private long globalOf(long t) {
        long x;
        if (requests.groupCount(host) > 1 && (lastRank < 0 ? t - before : t - lastRank - 1) < STEPS) {
            x = lastRank < 0
                    ? requests.walk(host, from, t - before)
                    : requests.walk(host, lastGlobal + 1, t - lastRank - 1);
        } else {
            x = requests.rank(host, t);
        }
        lastRank = t;
        lastGlobal = x;
        return x;
    }

    /**
     * Caller {@code c}'s first failure at the host in the scan, at global number {@code x}: its successes before the
     * scan are counted now, so that its counters are those the failures follow; the failure goes on their run when
     * the caller sent the host no request since the scan's start.
     */
    private void meet(int c, long x, long period) {
        metIn[c] = scan;
        met[metCount++] = c;
        failures[c] = 0;
        run[c] = 0;
        rotations[c].countBefore(
                host, schedule.callerRequestsBefore(c, from), callers[c].monitors, recorder, duringFault);
        allow[c] = callers[c].quietFailures(host, code, false);
        fresh[c] = callers[c].quietFailures(host, code, true);
        last[c] = x - period < from ? x - period : Long.MIN_VALUE;
    }

    /**
     * Hands the host's requests from the scan's start up to global number {@code end} over, every one of them
     * scanned: each caller's failures and successes to its monitor as counts with the failures in a row that end
     * its share ({@link Caller#foldedRequests}), and to the recorder's counts; they are no longer pending in its
     * rotation. A caller without a failure keeps its successes pending. Returns the failures.
     */
    long hand(long end) {
        for (int m = 0; m < metCount; m++) {
            int c = met[m];
            long f = failures[c];
            if (f == 0) {
                continue;
            }
            CallerRotation rotation = rotations[c];
            long first = schedule.callerRequestsBefore(c, from);
            long n = rotation.requestsTo(host, first, schedule.callerRequestsBefore(c, end));
            long lastRequest = rotation.nthRequestTo(host, first, n - 1);
            long trailing = last[c] == lastRequest * clients + c ? run[c] : 0;
            callers[c].foldedRequests(host, code, f, n - f, trailing);
            recorder.hostFailures(host, f, duringFault);
            recorder.hostSuccesses(host, n - f, duringFault);
            rotation.handedOver(host, lastRequest);
        }
        return total;
    }

    /** The global number of the failure the last scan stopped at. */
    long stopAt() {
        return stopAt;
    }

    /** The global numbers of the failures the last scan counted, in order, when it collected them. */
    long[] failed() {
        return failed;
    }

    int failedCount() {
        return failedCount;
    }
}
