package dev.outlierlab.tune;

/**
 * What one run of one suite scenario gives the objective: failed requests (in all and while a fault was active),
 * ejections and detections the cap refused, false ejections (of hosts that should stay) and the healthy host-seconds they cost, the most hosts out at once,
 * panic time, and the times to detect (with several callers: counted over all of them, the healthy host-seconds
 * weighted by each caller's share of the traffic) (fault start to the first ejection of a failing host; -1 when none was
 * ejected) and to return (last fault end to the return of the last host still out; 0 when none was).
 * {@code failed} is what the callers see, the objective's measure; {@code upstreamAttempts} and {@code upstreamFailed}
 * are what the hosts (and the detectors) see: with a route retry policy (istiod's default retries, Envoy's
 * {@code retry_policy}) a failed attempt retried on another host is not a failed request. {@code delayedRequests} are
 * the requests answered without an error only after waiting for one or more failed attempts (nginx's retry after a
 * timed-out attempt waits {@code proxy_read_timeout}, an Envoy route's its {@code per_try_timeout}; a refused
 * connection is retried at once and delays nothing), {@code delayNanos} the time they waited in all: a cost to the
 * callers that the failures alone do not show.
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
        long upstreamFailed,
        long delayedRequests,
        long delayNanos) {

    /** Figures of a run in which no request waited for a failed attempt (retries, if any, answered at once). */
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
            long returnNanos,
            long upstreamAttempts,
            long upstreamFailed) {
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
                upstreamAttempts,
                upstreamFailed,
                0,
                0);
    }

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

    /** These figures with another count of detections the cap refused. */
    RunFigures withOverflows(long count) {
        return new RunFigures(
                requests,
                failed,
                requestsDuringFault,
                failedDuringFault,
                ejections,
                count,
                falseEjections,
                healthyEjectedNanos,
                maxEjectedAtOnce,
                panicNanos,
                detectNanos,
                returnNanos,
                upstreamAttempts,
                upstreamFailed,
                delayedRequests,
                delayNanos);
    }

    /**
     * What the callers paid: failed requests plus those answered only after waiting for a failed attempt (each
     * request once: a delayed request did not fail).
     */
    public long harmed() {
        return failed + delayedRequests;
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
