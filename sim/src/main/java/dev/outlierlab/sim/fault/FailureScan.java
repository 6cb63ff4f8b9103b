package dev.outlierlab.sim.fault;

/**
 * What follows a scan of a host's failures ({@link FaultInjector#scanFailures}): each failure of the deciding fault in
 * order, by its request number at that fault, which it counts or stops the scan before. The simulator's fold of
 * failures follows the hosts' consecutive-error counters this way.
 */
public interface FailureScan {
    /** The scan starts at the deciding fault's request number {@code first}: the host's next request. */
    void start(long first);

    /** The failure at the deciding fault's request number {@code k}: true to count it and go on, false to stop there. */
    boolean add(long k);
}
