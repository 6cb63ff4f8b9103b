package dev.outlierlab.sim.signals;

/**
 * Where every request of a synthetic run went: served ({@code ok}), refused by its host's capacity, failed by a
 * fault, or sent with no host to take it. The four add up to {@code sent}.
 */
public record RequestOutcomes(long sent, long ok, long failedCapacity, long failedFault, long failedNoHost) {
    /** Every request failed. */
    public long failed() {
        return failedCapacity + failedFault + failedNoHost;
    }
}
