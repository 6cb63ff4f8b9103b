package dev.outlierlab.sim;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;

/**
 * How much work a run is, before it runs, in request-equivalents: every simulated request counts one; every
 * request a host receives while a fault covering it is active counts one more per such fault (its counter
 * steps); every host evaluated at an interval tick or a health-check round counts
 * {@link #UNITS_PER_HOST_EVALUATION}. The command line turns it into seconds to refuse runs of over a minute
 * unless allowed, and the lab server caps it per request. Saturates at {@link Long#MAX_VALUE}.
 *
 * @param requests        simulated requests
 * @param faultSteps      requests received by a host during an active fault covering it, summed over faults; on
 *                        the event-driven path with even or random faults, the draws scanned and the failures
 *                        planned, in request-equivalents
 * @param hostEvaluations (interval ticks + health-check rounds) x hosts x callers (each caller evaluates every
 *                        host); requests cost the same whatever the number of callers; on the event-driven path
 *                        also the one-second series steps x callers, where it records what it counted
 * @param countedRequests of the {@code requests}, those the event-driven path ({@link FastPath}) counts in bulk
 *                        instead of walking (every request to a host without an active fault, and with even or
 *                        random faults every request): they cost nothing here; 0 on the per-request path
 */
public record WorkEstimate(long requests, long faultSteps, long hostEvaluations, long countedRequests) {
    /**
     * A host evaluated at a tick (success rate, failure percentage, the ejection cap, returns) costs about as
     * much as this many requests.
     */
    public static final long UNITS_PER_HOST_EVALUATION = 10;

    /** An estimate of the per-request path: every request is walked. */
    public WorkEstimate(long requests, long faultSteps, long hostEvaluations) {
        this(requests, faultSteps, hostEvaluations, 0);
    }

    /** The work of simulating the scenario's synthetic traffic. */
    public static WorkEstimate of(Scenario s) {
        long steps = 0;
        for (FaultSpec f : s.faults()) {
            steps = Durations.saturatingAdd(steps, (long) Math.ceil(receivedInFault(s, f)));
        }
        return new WorkEstimate(s.requestCount(), steps, hostEvaluations(s));
    }

    /**
     * The work of simulating the scenario on the path {@code Simulation.run} takes with {@code options}: where the
     * event-driven path applies, the cheaper of its estimate ({@link #ofEventDriven}) and the per-request one
     * ({@link #of(Scenario)}), the path {@code Simulation.run} then takes (both give the same result); otherwise the
     * per-request one. Pass {@code perRequest} when the run hands every request to a sink (an access log), which keeps
     * it on the per-request path.
     */
    public static WorkEstimate ofRun(Scenario s, RunOptions options, boolean perRequest) {
        WorkEstimate walked = of(s);
        if (perRequest || !FastPath.appliesTo(s, options)) {
            return walked;
        }
        WorkEstimate fast = ofEventDriven(s);
        return fast.units() <= walked.units() ? fast : walked;
    }

    /**
     * The work of the event-driven path ({@link FastPath}): every request to a host without an active fault is
     * counted in bulk, at no cost here ({@code countedRequests}); where every active fault has the even or random
     * pattern, whose failures it finds by a scan of draws rather than a walk of requests ({@code PassBudget}), the
     * requests to faulty hosts are counted too, and the fault steps are a draw per request (about an eighth of a
     * walked request) plus {@link #unitsPerPlannedFailure} per failure (it is planned, reported and recorded, and
     * may eject, which replans every faulty host); with a burst pattern every request to a faulty host is walked
     * and steps its fault, as {@link #of} counts. Host evaluations are those of the per-request path (a
     * health-check round costs the same on both) plus the one-second series steps of every caller, where it
     * records what it counted.
     */
    public static WorkEstimate ofEventDriven(Scenario s) {
        WorkEstimate walked = of(s);
        long seconds = s.durationNanos() / 1_000_000_000L + 1;
        long evaluations = Durations.saturatingAdd(
                walked.hostEvaluations,
                Durations.saturatingMultiply(seconds, s.traffic().clients()));
        if (s.faults().stream().anyMatch(f -> f.pattern() == FaultPattern.BURSTS)) {
            return new WorkEstimate(
                    walked.requests,
                    walked.faultSteps,
                    evaluations,
                    walked.requests - Math.min(walked.requests, walked.faultSteps));
        }
        return new WorkEstimate(walked.requests, plannedFaultSteps(s), evaluations, walked.requests);
    }

    /**
     * The failures the scenario's faults make when no host ever leaves (detection off): the requests each faulty host
     * receives while its fault is active, spread evenly over the hosts, times the fault's error rate, summed over
     * faults. A run that ejects failing hosts makes fewer, and on the event-driven path each one spared is
     * {@link #unitsPerPlannedFailure} request-equivalents not spent.
     */
    public static double expectedFailures(Scenario s) {
        double failures = 0;
        for (FaultSpec f : s.faults()) {
            failures += receivedInFault(s, f) * f.errorRatePpm() / FaultSpec.PPM;
        }
        return failures;
    }

    /**
     * The requests the hosts of fault {@code f} receive while it is active within the scenario's duration (0 when its
     * window lies outside it): requests spread evenly over the hosts, so the fault's hosts receive their share of the
     * window's requests.
     */
    private static double receivedInFault(Scenario s, FaultSpec f) {
        long duration = s.durationNanos();
        long start = Math.min(f.startNanos(), duration);
        long end = Math.min(f.endNanos(), duration);
        if (end <= start) {
            return 0;
        }
        TrafficSpec traffic = s.traffic();
        return (traffic.requestsBefore(end) - traffic.requestsBefore(start))
                * (double) f.hosts().size()
                / s.cluster().size();
    }

    /** The fault steps of the event-driven path where every fault is indexed: draws scanned and failures planned. */
    private static long plannedFaultSteps(Scenario s) {
        long perFailure = unitsPerPlannedFailure(s.traffic().clients());
        double units = 0;
        for (FaultSpec f : s.faults()) {
            double received = receivedInFault(s, f);
            units += received / 8 + received * f.errorRatePpm() / FaultSpec.PPM * perFailure;
        }
        return (long) Math.min(Long.MAX_VALUE / 4, Math.ceil(units));
    }

    /**
     * What a failure costs on the event-driven path, in request-equivalents: {@link #UNITS_PER_PLANNED_FAILURE} with
     * one caller, and more with many, whose lists differ in size once some eject (the host's next failure is then
     * found over several groups of callers, and each ejection replans every faulty host): one more per doubling of the
     * callers. Measured against the per-request path's request in the same process (2026-12-06, 50 hosts at 50,000
     * rps, every host failing 20 % or 5 %): about 9 with one caller, 10 with 8, 12 to 15 with 50.
     */
    public static long unitsPerPlannedFailure(int callers) {
        int log2 = 64 - Long.numberOfLeadingZeros(Math.max(1, callers) - 1L);
        return UNITS_PER_PLANNED_FAILURE + log2;
    }

    /** What a failure costs on the event-driven path with one caller, in request-equivalents. */
    public static final long UNITS_PER_PLANNED_FAILURE = 10;

    /** The work of replaying a trace of {@code records} outcomes against the scenario's cluster. */
    public static WorkEstimate ofReplay(Scenario s, long records) {
        return new WorkEstimate(records, 0, hostEvaluations(s));
    }

    /**
     * Health-check rounds x hosts x callers over the scenario's duration: the probes each caller's health checker
     * sends (part of {@link #hostEvaluations(Scenario)}, where each counts as a host evaluated at a tick, though one
     * that finds nothing changed costs about a third of a request: on 2026-12-06, 7.5 million probes at 100 ms took
     * 0.16 s of CPU more than the same run without them).
     */
    public static long healthCheckProbes(Scenario s) {
        if (s.healthChecks() == null) {
            return 0;
        }
        long rounds = s.durationNanos() / s.healthChecks().shortestIntervalNanos();
        return Durations.saturatingMultiply(
                Durations.saturatingMultiply(rounds, s.cluster().size()),
                s.traffic().clients());
    }

    /** (Interval ticks + health-check rounds) x hosts x callers over the scenario's duration. */
    public static long hostEvaluations(Scenario s) {
        long rounds = s.durationNanos() / s.outlierDetection().intervalNanos();
        if (s.healthChecks() != null) {
            rounds = Durations.saturatingAdd(
                    rounds, s.durationNanos() / s.healthChecks().shortestIntervalNanos());
        }
        return Durations.saturatingMultiply(
                Durations.saturatingMultiply(rounds, s.cluster().size()),
                s.traffic().clients());
    }

    /** The whole estimate in request-equivalents. */
    public long units() {
        return Durations.saturatingAdd(
                Durations.saturatingAdd(requests - countedRequests, faultSteps),
                Durations.saturatingMultiply(hostEvaluations, UNITS_PER_HOST_EVALUATION));
    }

    /** The sum of two estimates (a sweep's runs). */
    public WorkEstimate plus(WorkEstimate other) {
        return new WorkEstimate(
                Durations.saturatingAdd(requests, other.requests),
                Durations.saturatingAdd(faultSteps, other.faultSteps),
                Durations.saturatingAdd(hostEvaluations, other.hostEvaluations),
                Durations.saturatingAdd(countedRequests, other.countedRequests));
    }
}
