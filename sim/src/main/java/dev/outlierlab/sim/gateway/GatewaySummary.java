package dev.outlierlab.sim.gateway;

import java.util.List;

/**
 * The counts of one gateway run (docs/gateway.md). Failed requests are those the caller saw
 * fail (the last attempt failed); ejections count {@code eject} events in prod and {@code would_eject}
 * events in shadow, by reason. Per endpoint: attempts, and the time ejected in each process (an ejection
 * still running at the end counts up to the duration).
 *
 * @param ejectedNanos            [process][endpoint] time ejected (virtually, in shadow)
 * @param judgementsBelowMinStdev statistical judgements whose rate was below {@code mean - factor * stdev}
 *                                but whose spread was below {@code min_stdev}, so nothing was ejected
 */
public record GatewaySummary(
        long requests,
        long attempts,
        long failedRequests,
        long failedAttempts,
        long requestsDuringFault,
        long failedRequestsDuringFault,
        List<Long> attemptsPerEndpoint,
        long consecutiveEjections,
        long successRateEjections,
        long returns,
        long ejectStages,
        long keptAllStages,
        long wouldEjectStages,
        List<List<Long>> ejectedNanos,
        long judgementsBelowMinStdev) {

    public GatewaySummary {
        attemptsPerEndpoint = List.copyOf(attemptsPerEndpoint);
        ejectedNanos = ejectedNanos.stream().map(List::copyOf).toList();
    }

    public long ejections() {
        return consecutiveEjections + successRateEjections;
    }

    /** Failed requests in percent of requests sent while a fault was active (0 when none were). */
    public double failedPercentDuringFault() {
        return requestsDuringFault == 0 ? 0 : failedRequestsDuringFault * 100.0 / requestsDuringFault;
    }
}
