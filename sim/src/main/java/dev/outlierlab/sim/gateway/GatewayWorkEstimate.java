package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;

/**
 * How much work a gateway run is, before it runs, in attempt-equivalents. Every request is routed (the
 * router and the stage each look over the endpoints) and makes one attempt; a request sent while a fault is
 * active may fail and fall back, up to {@code 1 + routing.fallbacks} attempts in all, never more than the
 * endpoints; each attempt is judged against every endpoint's window. So the estimate counts
 * {@code requests + attempts}, each weighted by {@code 1 + endpoints / }{@link #ENDPOINTS_PER_UNIT}, where
 * the attempts are an upper bound: every request once, plus the most fallbacks for every request in a fault's
 * window (a request outside every fault's window cannot fail). The processes split the requests between them,
 * so their number hardly changes the work. Measured in thread CPU time (2, 6, 30 and 100 endpoints, 16
 * processes, fallbacks), a unit costs 74 to 82 ns on this project's 2-core machine under load, so the weight
 * follows the time within about 10 %; the off mode (nothing recorded) and runs whose faults fail few attempts
 * take less than estimated. Saturates at {@link Long#MAX_VALUE}.
 *
 * @param requests simulated requests
 * @param attempts attempts at most (requests, plus fallbacks of requests sent while a fault is active)
 * @param units    the whole estimate in attempt-equivalents
 */
public record GatewayWorkEstimate(long requests, long attempts, long units) {
    /** No gateway work (a sweep of Envoy scenarios only). */
    public static final GatewayWorkEstimate NONE = new GatewayWorkEstimate(0, 0, 0);
    /**
     * Endpoints whose scans cost about as much as the rest of a request's or an attempt's work: each counts
     * {@code 1 + endpoints / ENDPOINTS_PER_UNIT} units (a fraction, rounded down over the whole run).
     */
    public static final int ENDPOINTS_PER_UNIT = 10;

    /** The work of simulating the gateway scenario. */
    public static GatewayWorkEstimate of(GatewayScenario s) {
        TrafficSpec traffic = s.traffic();
        long duration = s.durationNanos();
        long requests = s.requestCount();
        long inFaults = 0;
        for (FaultSpec f : s.faults()) {
            long start = Math.min(f.startNanos(), duration);
            long end = Math.min(f.endNanos(), duration);
            if (end > start) {
                inFaults =
                        Durations.saturatingAdd(inFaults, traffic.requestsBefore(end) - traffic.requestsBefore(start));
            }
        }
        long mostAttempts = s.maxAttemptsPerRequest();
        long fallbacks = Durations.saturatingMultiply(Math.min(inFaults, requests), mostAttempts - 1);
        long attempts = Durations.saturatingAdd(requests, fallbacks);
        long weighted = Durations.saturatingMultiply(
                Durations.saturatingAdd(requests, attempts),
                ENDPOINTS_PER_UNIT + s.endpoints().size());
        return new GatewayWorkEstimate(
                requests, attempts, weighted == Long.MAX_VALUE ? Long.MAX_VALUE : weighted / ENDPOINTS_PER_UNIT);
    }

    /** The sum of two estimates (a sweep's runs). */
    public GatewayWorkEstimate plus(GatewayWorkEstimate other) {
        return new GatewayWorkEstimate(
                Durations.saturatingAdd(requests, other.requests),
                Durations.saturatingAdd(attempts, other.attempts),
                Durations.saturatingAdd(units, other.units));
    }
}
