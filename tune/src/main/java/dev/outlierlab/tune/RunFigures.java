package dev.outlierlab.tune;

/**
 * What one run of one suite scenario gives the objective: failed requests (in all and while a fault was active),
 * ejections and detections the cap refused, false ejections (of hosts that should stay) and the healthy host-seconds they cost, the most hosts out at once,
 * panic time, and the times to detect (with several callers: counted over all of them, the healthy host-seconds
 * weighted by each caller's share of the traffic) (fault start to the first ejection of a failing host; -1 when none was
 * ejected) and to return (last fault end to the return of the last host still out; 0 when none was).
 */
public record RunFigures(
        long requests,
        long failed,
        long requestsDuringFault,
        long failedDuringFault,
        long ejections,
        long overflows,
        long falseEjections,
        long healthyEjectedNanos,
        int maxEjectedAtOnce,
        long panicNanos,
        long detectNanos,
        long returnNanos) {

    /** Failed requests while a fault was active, in percent. */
    public double failedPercentDuringFault() {
        return requestsDuringFault == 0 ? 0 : failedDuringFault * 100.0 / requestsDuringFault;
    }
}
