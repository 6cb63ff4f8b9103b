package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One failure scenario of the suite and the correct action it is scored against: the lab scenario (its outlier
 * settings replaced by each candidate's, its seed by each seed's), the hosts that should be ejected, whether one
 * host fails alone (where panic is not allowed), and the fault window the times to detect and to return are
 * measured from.
 *
 * @param shouldEject hosts whose ejection is right while they fail; an ejection of any other host is false
 * @param singleHost  one host fails alone: a setting that sends the cluster into panic here is refused
 */
public record SuiteScenario(
        String name,
        String description,
        Expectation expect,
        Scenario scenario,
        Set<String> shouldEject,
        boolean singleHost,
        long faultStartNanos,
        long faultEndNanos) {

    /**
     * How fast the oracle's health check takes a failing host out: every 100 ms from the start, out at the first
     * failure (its {@code no_traffic_interval} too, so that no probe waits for Envoy's 60 s before the cluster has
     * carried traffic).
     */
    static final HealthCheckSpec ORACLE_CHECK =
            new HealthCheckSpec(100_000_000L, 1, 1).withNoTrafficInterval(100_000_000L);

    public SuiteScenario {
        shouldEject = Set.copyOf(shouldEject);
    }

    /** The scenario of {@code suite} named {@code name}; another name is refused with the suite's names. */
    public static SuiteScenario named(List<SuiteScenario> suite, String name, String option) {
        return suite.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new InputException(option + ": '" + Wording.shortPrefix(name)
                        + "' is not a scenario of the suite; expected one of "
                        + String.join(
                                ", ", suite.stream().map(SuiteScenario::name).toList())));
    }

    /** The scenario with this seed and these outlier settings and panic threshold, for this Envoy release. */
    public Scenario with(long seed, OutlierDetectionConfig config, double panicThresholdPercent, EnvoyVersion version) {
        Scenario s = scenario;
        return s.toBuilder()
                .seed(seed)
                .cluster(new ClusterSpec(s.cluster().hosts(), panicThresholdPercent))
                .outlierDetection(config)
                .envoyVersion(version)
                .build();
    }

    /** This scenario with {@code routing} when it has no routing of its own ({@link TargetRoutes}). */
    SuiteScenario routedBy(RoutingSpec routing) {
        if (scenario.routing().isRouted()) {
            return this;
        }
        return new SuiteScenario(
                name,
                description,
                expect,
                scenario.withRouting(routing),
                shouldEject,
                singleHost,
                faultStartNanos,
                faultEndNanos);
    }

    /** Detection off as a job of the request's profile (the gateway's routing in off mode, else Envoy's simulation). */
    TuneRuns.Job offJob(TuneRequest req, long seed) {
        Scenario off = with(seed, TuneRuns.OFF, req.currentPanicPercent(), req.envoyVersion());
        return new TuneRuns.Job(this, off, offProfile(req));
    }

    /**
     * The correct action as a job: {@link #oracle} through Envoy's simulation; under the gateway profile (no health
     * checker) the gateway's routing in off mode with the faults of the hosts that should go taken away, as if they
     * were out for exactly as long as they fail.
     */
    TuneRuns.Job correctJob(TuneRequest req, long seed) {
        if (req.target().can(Target.Can.HEALTH_CHECK_ORACLE)) {
            return new TuneRuns.Job(this, oracle(seed, req.currentPanicPercent(), req.envoyVersion()));
        }
        Scenario off = with(seed, TuneRuns.OFF, req.currentPanicPercent(), req.envoyVersion());
        if (expect != Expectation.EJECT) {
            return new TuneRuns.Job(this, off, offProfile(req));
        }
        List<FaultSpec> kept = new ArrayList<>();
        for (FaultSpec f : off.faults()) {
            if (!shouldEject.containsAll(f.hosts())) {
                kept.add(f);
            }
        }
        Scenario ideal = off.toBuilder().seed(seed).faults(kept).build();
        return new TuneRuns.Job(this, ideal, offProfile(req));
    }

    private static RunProfile offProfile(TuneRequest req) {
        return req.currentProfile().off();
    }

    /**
     * The correct action as a run: detection off, and the hosts that should go taken out by an active health check
     * within 100 ms of failing and back as soon as they pass; for a scenario where nothing should be ejected (or at
     * most one degraded host), detection off alone.
     */
    public Scenario oracle(long seed, double panicThresholdPercent, EnvoyVersion version) {
        Scenario off = with(seed, TuneRuns.OFF, panicThresholdPercent, version);
        if (expect != Expectation.EJECT) {
            return off;
        }
        List<FaultSpec> faults = new ArrayList<>();
        for (FaultSpec f : off.faults()) {
            boolean out = shouldEject.containsAll(f.hosts());
            faults.add(
                    out
                            ? f.toBuilder()
                                    // a fault the suite expects ejected fails its requests and its health checks
                                    .healthCheckFailure(HealthCheckFailure.STATUS)
                                    .degraded(false)
                                    .build()
                            : f);
        }
        return off.toBuilder()
                .seed(seed)
                .faults(faults)
                .healthChecks(ORACLE_CHECK)
                .envoyVersion(version)
                .build();
    }
}
