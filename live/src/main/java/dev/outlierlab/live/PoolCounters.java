package dev.outlierlab.live;

/**
 * Counts that account for every outcome and every stage of a pool since it started. Every outcome that
 * {@code record} accepted is, once drained, either applied to the detector or discarded because its
 * endpoint was removed first: {@code accepted == applied + discarded + pending}.
 *
 * @param accepted       outcomes accepted by {@code record}
 * @param applied        outcomes given to the detector
 * @param discarded      outcomes dropped at drain time because their endpoint had been removed
 * @param ignoredOff     {@code record} calls in {@link StageMode#OFF}, not recorded
 * @param filtered       requests filtered (every mode)
 * @param stageEject     requests whose prod stage removed at least one endpoint (requests, not ejections)
 * @param stageKeptAll   requests whose prod stage the guard kept every candidate (the list would have been empty,
 *                       or, in the Envoy profile, below the panic threshold)
 * @param stageWouldEject requests whose shadow stage named at least one endpoint
 * @param listenerErrors anything thrown by listeners (exceptions and errors), caught and counted
 * @param decisionsDropped decisions not delivered because 10,000 were waiting for
 *                       a listener that did not return
 */
public record PoolCounters(
        long accepted,
        long applied,
        long discarded,
        long ignoredOff,
        long filtered,
        long stageEject,
        long stageKeptAll,
        long stageWouldEject,
        long listenerErrors,
        long decisionsDropped) {
    /** Outcomes accepted but not yet drained. */
    public long pending() {
        return accepted - applied - discarded;
    }
}
