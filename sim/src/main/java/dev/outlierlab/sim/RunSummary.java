package dev.outlierlab.sim;

/**
 * The headline figures of a run (the run output of docs/model.md plus a few more). "During fault" means sent while at least
 * one fault window was active; {@code ejectionsDetected} counts every detection before the cap and
 * enforcement; {@code panicNanos} sums, over requests sent in panic (by their caller's state), the time to the
 * next request. With several callers every count is over all callers, {@code maxEjectedAtOnce} is the most
 * hosts any one caller had ejected at once, and {@code ejectedCallerNanos} sums, over the callers, the time in
 * which that caller had at least one host ejected. {@code requests} and {@code failed} are what the callers see;
 * {@code upstreamAttempts} and {@code upstreamFailed} what the hosts (and so the detectors) see: without retries each
 * request that found a host is one attempt, with retries a failed attempt may be followed by others, and the request
 * fails for its caller only when its last attempt does. {@code slowRequests} are the requests answered without an
 * error only after a retried attempt made them wait ({@link RetryWaits}), {@code slowNanos} the time they waited in
 * all; 0 without retries.
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
        long ejectedCallerNanos,
        long upstreamAttempts,
        long upstreamFailed,
        long slowRequests,
        long slowNanos) {

    /** Attempts beyond each request's first (retries). */
    public long retries() {
        return upstreamAttempts - (requests - noHealthyUpstream);
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
