package dev.outlierlab.tune;

/**
 * What one run of one suite scenario gives the objective: failed requests (in all and while a fault was active),
 * ejections and detections the cap refused, false ejections (of hosts that should stay) and the healthy host-seconds they cost, the most hosts out at once,
 * panic time, and the times to detect (with several callers: counted over all of them, the healthy host-seconds
 * weighted by each caller's share of the traffic) (fault start to the first ejection of a failing host; -1 when none was
 * ejected) and to return (last fault end to the return of the last host still out; 0 when none was).
 * {@code failed} is what the callers see, the objective's measure; {@code upstreamAttempts} and {@code upstreamFailed}
 * are what the hosts (and the detectors) see: with a route retry policy (istiod's default retries, Envoy's
 * {@code retry_policy}) a failed attempt retried on another host is not a failed request.
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
        long returnNanos,
        long upstreamAttempts,
        long upstreamFailed) {

    /** Figures of a run whose requests each made one attempt (no retries): the hosts saw what the callers saw. */
    public RunFigures(
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
        this(
                requests,
                failed,
                requestsDuringFault,
                failedDuringFault,
                ejections,
                overflows,
                falseEjections,
                healthyEjectedNanos,
                maxEjectedAtOnce,
                panicNanos,
                detectNanos,
                returnNanos,
                requests,
                failed);
    }

    /** Failed attempts to hosts in percent of the attempts, over the whole run. */
    public double upstreamFailedPercent() {
        return upstreamAttempts == 0 ? 0 : upstreamFailed * 100.0 / upstreamAttempts;
    }

    /** Failed requests while a fault was active, in percent. */
    public double failedPercentDuringFault() {
        return requestsDuringFault == 0 ? 0 : failedDuringFault * 100.0 / requestsDuringFault;
    }
}
