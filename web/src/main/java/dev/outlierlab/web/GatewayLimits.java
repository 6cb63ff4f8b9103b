package dev.outlierlab.web;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.sim.gateway.GatewayScenario;

/**
 * The lab's {@link SimulationLimits} applied to a {@code profile: gateway} scenario, checked before it runs:
 * endpoints (against the host limit), faults, requests, attempts ({@code requests x (1 + fallbacks)}, at most
 * one per endpoint: the gateway's unit of work), the windows' buckets ({@code processes x endpoints x
 * window / bucket}, each kept in memory; against the host-evaluation limit), endpoint scorings (each attempt's
 * judgement goes over every endpoint; against the work limit) and an upper bound on decisions (each
 * endpoint in each process can be ejected at most once per {@code ejection_time}, each ejection followed by
 * at most one return). A refusal names the key, the scenario's figure, the limit and what to change.
 */
final class GatewayLimits {
    private GatewayLimits() {}

    /** Throws a 400 {@link ApiException} naming the first limit the scenario exceeds. */
    static void check(SimulationLimits limits, GatewayScenario s) {
        int endpoints = s.endpoints().size();
        GatewayConfig g = s.gateway();
        if (endpoints > limits.maxHosts()) {
            throw refuse("cluster.hosts: " + Numbers.count(endpoints) + " endpoints is over the lab's limit of "
                    + Numbers.count(limits.maxHosts()) + " per run; use fewer endpoints");
        }
        if (s.faults().size() > limits.maxFaults()) {
            throw refuse("faults: " + Numbers.count(s.faults().size()) + " entries is over the lab's limit of "
                    + Numbers.count(limits.maxFaults()) + " faults per run; merge faults that cover the same window");
        }
        long requests = s.requestCount();
        if (requests > limits.maxRequests()) {
            throw refuse("traffic.rps: the simulation would send " + Numbers.count(requests)
                    + " requests (traffic.rps x duration), over the lab's limit of "
                    + Numbers.count(limits.maxRequests())
                    + " requests per run; lower traffic.rps or duration");
        }
        long attempts = attempts(s);
        if (attempts > limits.maxRequests()) {
            throw refuse("routing.fallbacks: the simulation could make up to " + Numbers.count(attempts)
                    + " attempts (" + Numbers.count(requests) + " requests x " + attemptsPerRequest(s)
                    + ", 1 + fallbacks and at most one per endpoint), over the lab's limit of "
                    + Numbers.count(limits.maxRequests())
                    + " attempts per run; lower routing.fallbacks, traffic.rps or duration");
        }
        long buckets = Math.multiplyExact((long) g.processes() * endpoints, (long) g.buckets());
        if (buckets > limits.maxHostEvaluations()) {
            throw refuse("gateway.window: the windows would keep " + Numbers.count(buckets) + " buckets ("
                    + g.processes() + " processes x " + Numbers.count(endpoints) + " endpoints x "
                    + Numbers.count(g.buckets()) + " buckets of the window), over the lab's limit of "
                    + Numbers.count(limits.maxHostEvaluations())
                    + "; use a larger gateway.bucket, a shorter window, fewer "
                    + "processes or fewer endpoints");
        }
        long scorings = Math.multiplyExact(attempts, (long) endpoints);
        if (scorings > limits.maxWork()) {
            throw refuse("cluster.hosts: the simulation could score " + Numbers.count(scorings) + " endpoints ("
                    + Numbers.count(attempts) + " attempts, each judged against " + Numbers.count(endpoints)
                    + " endpoints), over the lab's limit of " + Numbers.count(limits.maxWork())
                    + " endpoint scorings per run; lower traffic.rps or duration, or use fewer endpoints");
        }
        long decisions = decisionBound(s);
        if (decisions > limits.maxDecisions()) {
            throw refuse("gateway.ejection_time: the simulation could log up to " + Numbers.count(decisions)
                    + " decisions (" + g.processes() + " processes x " + Numbers.count(endpoints) + " endpoints x "
                    + Numbers.count(s.durationNanos() / g.ejectionTimeNanos() + 1)
                    + " ejections each, and their returns), "
                    + "over the lab's limit of " + Numbers.count(limits.maxDecisions())
                    + " per run; use a longer gateway.ejection_time, a shorter duration, fewer processes or endpoints");
        }
    }

    /** Attempts a request can make: 1 + fallbacks, and no more than the endpoints. */
    static long attemptsPerRequest(GatewayScenario s) {
        return s.maxAttemptsPerRequest();
    }

    /** The most attempts the run can make. */
    static long attempts(GatewayScenario s) {
        return Math.multiplyExact(s.requestCount(), attemptsPerRequest(s));
    }

    /**
     * An upper bound on decisions: an ejection lasts {@code ejection_time} from the outcome that caused it, so
     * each endpoint in each process is ejected at most {@code duration / ejection_time + 1} times, and each
     * ejection is followed by at most one return.
     */
    static long decisionBound(GatewayScenario s) {
        GatewayConfig g = s.gateway();
        long perEndpoint = s.durationNanos() / g.ejectionTimeNanos() + 1;
        return Durations.saturatingMultiply(
                Durations.saturatingMultiply(
                        (long) g.processes() * s.endpoints().size(), perEndpoint),
                2L);
    }

    private static ApiException refuse(String message) {
        return ApiException.badRequest(message + ", or run the scenario with `outlier-lab run`");
    }
}
