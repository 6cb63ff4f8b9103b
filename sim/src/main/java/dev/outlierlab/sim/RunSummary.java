package dev.outlierlab.sim;

/**
 * The headline figures of a run (spec section 8 plus a few more). "During fault" means sent while at least
 * one fault window was active; {@code ejectionsDetected} counts every detection before the cap and
 * enforcement; {@code panicNanos} sums, over requests sent in panic, the time to the next request.
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
        int maxEjectedAtOnce) {

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
