package dev.outlierlab.sim;

/**
 * The headline figures of a run (spec section 8 plus a few more). "During fault" means sent while at least
 * one fault window was active; {@code ejectionsDetected} counts every detection before the cap and
 * enforcement; {@code panicNanos} sums, over requests sent in panic (by their caller's state), the time to the
 * next request. With several callers every count is over all callers, {@code maxEjectedAtOnce} is the most
 * hosts any one caller had ejected at once, and {@code ejectedCallerNanos} sums, over the callers, the time in
 * which that caller had at least one host ejected.
 */
public record RunSummary(
        long requests,
        long failed,
        long requestsDuringFault,
        long failedDuringFault,
        long ejectionsDetected,
        long ejectionsEnforced,
        long ejectionsOverflow,
        long ejectionsUnenforced,
        long returns,
        long panicNanos,
        long noHealthyUpstream,
        int maxEjectedAtOnce,
        int clients,
        long ejectedCallerNanos) {

    /** A single caller's summary. */
    public RunSummary(long requests, long failed, long requestsDuringFault, long failedDuringFault,
            long ejectionsDetected, long ejectionsEnforced, long ejectionsOverflow, long ejectionsUnenforced,
            long returns, long panicNanos, long noHealthyUpstream, int maxEjectedAtOnce) {
        this(requests, failed, requestsDuringFault, failedDuringFault, ejectionsDetected, ejectionsEnforced,
                ejectionsOverflow, ejectionsUnenforced, returns, panicNanos, noHealthyUpstream, maxEjectedAtOnce, 1, 0);
    }

    /** {@code failed_during_fault * 100.0 / requests_during_fault}, 0 when nothing was sent during a fault. */
    public double failedPercentDuringFault() {
        return requestsDuringFault == 0 ? 0.0 : failedDuringFault * 100.0 / requestsDuringFault;
    }

    public double failedPercent() {
        return requests == 0 ? 0.0 : failed * 100.0 / requests;
    }

    public double panicSeconds() {
        return panicNanos / 1e9;
    }
}
