package dev.outlierlab.sim;

import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulation's event-driven path: the same {@link RunResult} as {@link Simulation}'s per-request loop, bit for
 * bit, with work that follows events (fault edges, requests to hosts with an active fault, ejections, returns,
 * interval ticks, the series' steps) instead of requests. Between events each caller's round robin is arithmetic
 * ({@link CallerRotation}): requests to hosts without an active fault all succeed, so they are counted, handed to
 * the detectors in bulk ({@code HostMonitor.putSuccesses}) and recorded per stretch ({@link EventDrivenRun}); a
 * host with an active fault gets its requests one by one, with the fault pattern's draws unchanged. A cluster of
 * 1,000 hosts with one failing does about a thousandth of the per-request work. {@link Simulation#run} takes this
 * path whenever {@link #appliesTo} says it can, {@link RunOptions#perRequest()} is off and its estimated work is at
 * most the per-request path's ({@code WorkEstimate}: not where most requests fail); the scenario features it
 * does not model are listed by {@link #fallbackReasons}, and those runs go request by request.
 */
public final class FastPath {
    private FastPath() {}

    /** Whether the event-driven path can run this scenario with these options (no {@link RequestSink}). */
    public static boolean appliesTo(Scenario scenario, RunOptions options) {
        return fallbackReasons(scenario, options).isEmpty();
    }

    /**
     * Why the scenario runs request by request: degraded hosts,
     * load-balancing weights, Poisson arrivals, rate steps, Envoy's priority routing and retries, or {@link RunOptions#perRequest()}; empty when the fast
     * path applies.
     */
    public static List<String> fallbackReasons(Scenario scenario, RunOptions options) {
        List<String> reasons = new ArrayList<>();
        if (options.perRequest()) {
            reasons.add("the per-request path was asked for");
        }
        if (scenario.faults().stream().anyMatch(f -> f.degraded())) {
            reasons.add("degraded hosts (faults of kind: degraded)");
        }
        LoadSpec load = scenario.load();
        if (!load.weights().isEmpty()) {
            reasons.add("load-balancing weights (cluster.weights)");
        }
        if (load.arrivals() != Arrivals.EVEN) {
            reasons.add("Poisson arrivals (traffic.arrivals)");
        }
        if (!load.steps().isEmpty()) {
            reasons.add("rate steps (traffic.steps)");
        }
        if (scenario.routing().needsRouter()) {
            reasons.add("Envoy's priority load balancer or retries (cluster.lb_policy, priorities, zones, "
                    + "overprovisioning_factor, fail_traffic_on_panic, traffic.retries): picks and retries draw "
                    + "per request");
        }
        return reasons;
    }

    /**
     * Runs the scenario on the event-driven path.
     *
     * @throws IllegalArgumentException when {@link #appliesTo} is false
     * @throws IllegalStateException when the scenario has per-host capacity that a host may reach
     *     ({@link #runOrNull} says so with null)
     */
    public static RunResult run(Scenario scenario, RunOptions options) {
        RunResult r = runOrNull(scenario, options);
        if (r == null) {
            throw new IllegalStateException("the fast path gave up: a host may reach its capacity");
        }
        return r;
    }

    /**
     * Runs the scenario on the event-driven path, or returns null when it has per-host capacity
     * ({@code cluster.capacity}) and a host may reach it ({@link CapacityGuard}): such a run is made request by
     * request.
     *
     * @throws IllegalArgumentException when {@link #appliesTo} is false
     */
    public static RunResult runOrNull(Scenario scenario, RunOptions options) {
        List<String> reasons = fallbackReasons(scenario, options);
        if (!reasons.isEmpty()) {
            throw new IllegalArgumentException("the fast path cannot run this scenario: " + String.join(", ", reasons));
        }
        try {
            return new EventDrivenRun(scenario, options).run();
        } catch (CapacityGuard.CapacityReached e) {
            return null;
        }
    }
}
