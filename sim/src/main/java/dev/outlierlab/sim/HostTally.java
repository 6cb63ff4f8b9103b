package dev.outlierlab.sim;

/**
 * One host's share of a run's synthetic traffic: the requests it received and how many failed, in all and
 * while a fault window was active. Requests that found no host are not counted here.
 */
public record HostTally(String host, long requests, long failed, long requestsDuringFault, long failedDuringFault) {

    /** {@code failedDuringFault * 100.0 / requestsDuringFault}, 0 when the host received nothing during a fault. */
    public double failedPercentDuringFault() {
        return requestsDuringFault == 0 ? 0.0 : failedDuringFault * 100.0 / requestsDuringFault;
    }
}
