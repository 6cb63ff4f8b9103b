package dev.outlierlab.sim.fault;

/**
 * A scan of a host's failures in order that follows a consecutive-error counter through them
 * ({@link FaultInjector#scanRuns}): each failure either continues the run of failures in a row (it comes right after
 * the last one) or starts a new one after a success, and the scan stops before the first failure that would make a run
 * longer than allowed: {@code allowNow} for the run going on when the scan starts (counted from the counter then),
 * {@code allowFresh} for a run after a success. Keeps how many failures were counted, where the last was and how long
 * its run is.
 */
public final class FailureRuns {
    private long origin;
    private long failures;
    private long last;
    private long run;
    private long allow;
    private long fresh;

    /** Starts a scan at request number {@code from}. */
    void start(long from, long allowNow, long allowFresh) {
        origin = from;
        failures = 0;
        last = from - 1;
        run = 0;
        allow = allowNow;
        fresh = allowFresh;
    }

    /** Counts the failure at request number {@code k}, unless it would make its run too long: false then. */
    boolean add(long k) {
        boolean goesOn = k == last + 1;
        long r = goesOn ? run + 1 : 1;
        long a = goesOn ? allow : fresh;
        if (r > a) {
            return false;
        }
        run = r;
        allow = a;
        last = k;
        failures++;
        return true;
    }

    /** Failures counted. */
    public long failures() {
        return failures;
    }

    /** Where the last failure counted is, from the scan's start (0: its first request); -1 when none was. */
    public long lastOffset() {
        return last - origin;
    }

    /** How many failures in a row end at the last one counted (0 when none was). */
    public long run() {
        return run;
    }
}
