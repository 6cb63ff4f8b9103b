package dev.outlierlab.sim;

/**
 * One host's share of a run's synthetic traffic: the requests it received and how many failed, in all and
 * while a fault window was active, and the caller-time it spent ejected (summed over the callers, each from its
 * ejection to its return or the run's end). Requests that found no host are not counted here.
 */
public record HostTally(
        String host,
        long requests,
        long failed,
        long requestsDuringFault,
        long failedDuringFault,
        long ejectedCallerNanos) {

    /** A tally without the time ejected. */
    public HostTally(String host, long requests, long failed, long requestsDuringFault, long failedDuringFault) {
        this(host, requests, failed, requestsDuringFault, failedDuringFault, 0);
    }

    /** The share, in percent, of {@code clients x duration} in which a caller had this host ejected. */
    public double ejectedPercentOfCallerTime(int clients, long durationNanos) {
        return ejectedCallerNanos * 100.0 / ((double) clients * durationNanos);
    }

    /** {@code failedDuringFault * 100.0 / requestsDuringFault}, 0 when the host received nothing during a fault. */
    public double failedPercentDuringFault() {
        return requestsDuringFault == 0 ? 0.0 : failedDuringFault * 100.0 / requestsDuringFault;
    }
}
