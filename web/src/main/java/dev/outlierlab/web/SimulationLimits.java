package dev.outlierlab.web;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;

/**
 * How much work and memory one request to the lab may ask for. A scenario file accepts far larger runs
 * than a shared web page should compute on demand, so the server checks, before running, the request
 * body's size, the cluster's size, the number of simulated requests, the per-host evaluations at interval
 * ticks and health-check rounds (each keeps a sample for the charts), and an upper bound on the decisions
 * the detector can log (each becomes an event in the answer). A refusal names the limit, the scenario's
 * figure and what to change.
 *
 * @param maxBodyBytes       largest request body
 * @param maxHosts           largest cluster
 * @param maxRequests        most simulated requests ({@link Scenario#requestCount()})
 * @param maxHostEvaluations most (interval ticks + health-check rounds) x hosts
 * @param maxDecisions       largest upper bound on logged decisions
 * @param maxFaults          most entries in {@code faults}
 * @param maxWork            most work in request-equivalents ({@link WorkEstimate#units()}: requests, each
 *                           request's steps in the faults active at its host, host evaluations)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SimulationLimits(
        int maxBodyBytes,
        int maxHosts,
        long maxRequests,
        long maxHostEvaluations,
        long maxDecisions,
        int maxFaults,
        long maxWork) {
    /**
     * The server's limits: 64 KiB, 1,000 hosts, 20 million requests, 1 million host evaluations, 200,000
     * decisions, 100 faults, 100 million request-equivalents of work (about 6 seconds of one core at the 18 million simulated
     * requests a second measured on 2026-12-01 with the host in a slow phase; the server's deadline stops anything
     * slower).
     */
    public static final SimulationLimits DEFAULT =
            new SimulationLimits(64 * 1024, 1_000, 20_000_000L, 1_000_000L, 200_000L, 100, 100_000_000L);

    /** Throws a 400 {@link ApiException} naming the first limit the scenario exceeds. */
    public void check(Scenario s) {
        int hosts = s.cluster().size();
        if (hosts > maxHosts) {
            throw ApiException.badRequest("cluster.hosts: " + Numbers.count(hosts)
                    + " hosts is over the lab's limit of " + Numbers.count(maxHosts)
                    + " hosts per run; use fewer hosts, or run the scenario with `outlier-lab run`");
        }
        if (s.faults().size() > maxFaults) {
            throw ApiException.badRequest("faults: " + Numbers.count(s.faults().size())
                    + " entries is over the lab's limit of "
                    + Numbers.count(maxFaults) + " faults per run; merge faults that cover the same window, or run the "
                    + "scenario with `outlier-lab run`");
        }
        long requests = s.requestCount();
        if (requests > maxRequests) {
            throw ApiException.badRequest("the simulation would send " + Numbers.count(requests)
                    + " requests (traffic.rps x duration), over the lab's limit of " + Numbers.count(maxRequests)
                    + " requests per run; lower traffic.rps or duration, or run the scenario with `outlier-lab run`");
        }
        long evaluations = Math.multiplyExact(
                Math.multiplyExact(rounds(s), (long) hosts), s.traffic().clients());
        if (evaluations > maxHostEvaluations) {
            throw ApiException.badRequest("the simulation would evaluate " + Numbers.count(hosts) + " hosts at "
                    + Numbers.count(rounds(s)) + " interval ticks and health-check rounds"
                    + (s.traffic().clients() > 1
                            ? " for each of " + Numbers.count(s.traffic().clients()) + " callers"
                            : "")
                    + " (" + Numbers.count(evaluations)
                    + " host evaluations), over the lab's limit of " + Numbers.count(maxHostEvaluations)
                    + "; use a longer outlier_detection.interval, a shorter duration or fewer hosts");
        }
        WorkEstimate work = WorkEstimate.of(s);
        if (work.units() > maxWork) {
            throw ApiException.badRequest("the simulation is estimated at " + Numbers.count(work.units())
                    + " request-equivalents of work (" + Numbers.count(work.requests()) + " requests, "
                    + Numbers.count(work.faultSteps()) + " steps in active faults, "
                    + Numbers.count(work.hostEvaluations())
                    + " host evaluations x " + WorkEstimate.UNITS_PER_HOST_EVALUATION + "), over the lab's limit of "
                    + Numbers.count(maxWork)
                    + "; lower traffic.rps or duration, use fewer or shorter faults, or run the "
                    + "scenario with `outlier-lab run`");
        }
        long decisions = decisionBound(s);
        if (decisions > maxDecisions) {
            throw ApiException.badRequest("the simulation could log up to " + Numbers.count(decisions)
                    + " detector decisions, over the lab's limit of " + Numbers.count(maxDecisions)
                    + " per run; lower traffic.rps, the faults' error_rate or window, or raise consecutive_5xx");
        }
    }

    /** Interval ticks (at k x interval up to the duration) plus health-check rounds. */
    private static long rounds(Scenario s) {
        long rounds = s.durationNanos() / s.outlierDetection().intervalNanos();
        if (s.healthChecks() != null) {
            rounds += s.durationNanos() / s.healthChecks().shortestIntervalNanos();
        }
        return rounds;
    }

    /**
     * An upper bound on logged decisions: every run of {@code threshold} failed requests can be a detection by
     * each consecutive detector it feeds, unless the faults' even failure pattern (docs/fault-patterns.md) never
     * makes such a run (with the opt-in load keys a fault's window counts every request, as arrivals may differ
     * from traffic.rps); every tick can offer each host to success rate and failure percentage, for each
     * origin; and each ejection can be followed by at most one return.
     */
    static long decisionBound(Scenario s) {
        OutlierDetectionConfig od = s.outlierDetection();
        TrafficSpec traffic = s.traffic();
        long failures = 0;
        long longestRuns = 0;
        boolean local = false;
        boolean gateway = false;
        int active = 0;
        for (FaultSpec f : s.faults()) {
            long start = Math.min(f.startNanos(), s.durationNanos());
            long end = Math.min(f.endNanos(), s.durationNanos());
            long inWindow = s.load().isShaped()
                    ? s.requestCount()
                    : traffic.requestsBefore(end) - traffic.requestsBefore(start);
            if (inWindow == 0 || f.errorRatePpm() == 0) {
                continue;
            }
            active++;
            // The even pattern fails exactly its share; random and burst patterns may fail any request.
            failures += f.pattern() == FaultPattern.EVEN
                    ? (long) Math.ceil(inWindow * (f.errorRatePpm() / (double) FaultSpec.PPM))
                    : inWindow;
            longestRuns = Durations.saturatingAdd(longestRuns, f.longestFailureRun());
            local |= od.splitExternalLocalOriginErrors() && f.result() != null;
            gateway |= f.result() == null && f.status() >= 502 && f.status() <= 504;
        }
        // A run of failures at a host is made of stretches of each fault's pattern; with several faults the
        // one that decides can change at each window's start and end, so allow each fault two stretches.
        long longest = active <= 1 ? longestRuns : Durations.saturatingMultiply(2L * active, longestRuns);
        long consecutive = perRun(failures, od.consecutive5xx(), longest);
        if (gateway) {
            consecutive += perRun(failures, od.consecutiveGatewayFailure(), longest);
        }
        if (local) {
            consecutive += perRun(failures, od.consecutiveLocalOriginFailure(), longest);
        }
        long perTick = od.splitExternalLocalOriginErrors() ? 4 : 2;
        long ticks = s.durationNanos() / od.intervalNanos();
        long atTicks = ticks * s.cluster().size() * perTick;
        return Durations.saturatingAdd(2 * (consecutive + atTicks), overloadBound(s));
    }

    /**
     * Decisions that refusals for capacity can add: a host over its capacity may refuse any request, in runs of
     * any length, so every {@code threshold} requests can be a detection by each consecutive detector the
     * refusal feeds; only a detector that can eject (enforcing above 0) can be followed by a return.
     */
    private static long overloadBound(Scenario s) {
        if (!s.load().hasCapacity()) {
            return 0;
        }
        OutlierDetectionConfig od = s.outlierDetection();
        long requests = s.requestCount();
        boolean timeout = s.load().overloadResult() != null;
        int status = s.load().overloadStatus();
        long bound = 0;
        if (timeout && od.splitExternalLocalOriginErrors()) {
            bound += perRun(requests, od.consecutiveLocalOriginFailure(), Long.MAX_VALUE)
                    * (od.enforcingPercent(EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE) > 0 ? 2 : 1);
        } else {
            bound += perRun(requests, od.consecutive5xx(), Long.MAX_VALUE)
                    * (od.enforcingPercent(EjectionType.CONSECUTIVE_5XX) > 0 ? 2 : 1);
            if (timeout || (status >= 502 && status <= 504)) {
                bound += perRun(requests, od.consecutiveGatewayFailure(), Long.MAX_VALUE)
                        * (od.enforcingPercent(EjectionType.CONSECUTIVE_GATEWAY_FAILURE) > 0 ? 2 : 1);
            }
        }
        return bound;
    }

    /**
     * Detections one consecutive detector can make in {@code failures}: none when its threshold is 0 (the
     * count never equals it) or longer than any run of failures, else at most one per {@code threshold}.
     */
    private static long perRun(long failures, long threshold, long longestRun) {
        return threshold == 0 || threshold > longestRun ? 0 : failures / threshold + 1;
    }
}
