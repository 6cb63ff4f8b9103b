package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The search under gRPC's and the gateway's own rules, on four scenarios of the seed's cluster (six hosts): the
 * seed's case, a dead host, a shared outage and a noisy pool. Also the suite under an active health check that
 * returns hosts the detector ejected.
 */
class ProfileTuneTest {
    private static final Set<String> FOUR =
            Set.of("one-host-partial", "one-host-dead-503", "shared-outage", "noisy-pool");

    private static List<SuiteScenario> four(long rps, HealthCheckSpec health) {
        return new DefaultSuite(6, rps, 1, 0, health)
                .scenarios().stream().filter(s -> FOUR.contains(s.name())).toList();
    }

    @Test
    void underGrpcTheDefaultsEjectTheSeedsHostAndTheRecommendationIsAServiceConfigThatCatchesIt() {
        TuneRequest req = ProfileTargetsTest.request(GrpcTarget.INSTANCE, 6, 600, four(600, null));
        TuneResult r = Tuner.tune(req, u -> {});
        // success rate at A50's defaults: the first ejection is always allowed, so the seed's host goes at 40 s
        ScenarioScore cur = r.current().score("one-host-partial");
        assertThat(cur.failedPercentDuringFault(true)).isBetween(5.3, 5.7);
        assertThat(cur.failedPercentDuringFault(false)).isLessThan(1.0);
        assertThat(cur.runs()).allMatch(f -> f.detectNanos() == 10_000_000_000L);
        Evaluation best = r.recommended();
        assertThat(best.admissible()).isTrue();
        assertThat(best.setting().consecutive5xx()).isZero();
        assertThat(best.score("one-host-partial").failedPercentDuringFault(false))
                .isLessThan(1.0);
        for (String quiet : List.of("shared-outage", "noisy-pool")) {
            assertThat(best.score(quiet).runs()).as(quiet).allMatch(f -> f.ejections() == 0);
        }
        String file = best.written().text();
        assertThat(file)
                .contains("\"outlier_detection_experimental\"")
                .contains("\"childPolicy\": [{\"round_robin\": {}}]");
        assertThat(ServiceConfigReader.read(file, "recommended", GrpcImplementation.JAVA)
                        .config())
                .isEqualTo(((GrpcRun) best.written().profile()).config());
        assertThat(r.recommendationFindings()).noneMatch(f -> f.startsWith("error "));
        assertThat(r.detectors()).anyMatch(d -> d.startsWith("consecutive failures: gRPC's outlier detection has no"));
        assertThat(TuneText.render(r)).contains("target grpc (grpc-java)").contains("a gRPC service config");
    }

    @Test
    void underTheGatewayTheRecommendationIsAGatewayConfigurationThatCatchesTheSeedsHostAndSparesTheSharedOutage() {
        TuneRequest req = ProfileTargetsTest.request(GatewayTuneTarget.INSTANCE, 6, 300, four(300, null));
        TuneResult r = Tuner.tune(req, u -> {});
        // the defaults' hard trip (3 in a row) fires on healthy endpoints at a shared outage's 20 %
        assertThat(r.current().score("shared-outage").falseEjections()).isGreaterThan(5);
        assertThat(r.current().admissible()).isFalse();
        Evaluation best = r.recommended();
        assertThat(best.admissible()).isTrue();
        assertThat(best.setting().gateway().consecutiveFailures()).isNotEqualTo(3);
        ScenarioScore seed = best.score("one-host-partial");
        assertThat(seed.failedPercentDuringFault(true)).isBetween(5.2, 5.7);
        assertThat(seed.failedPercentDuringFault(false)).isLessThan(1.0);
        assertThat(best.score("shared-outage").runs()).allMatch(f -> f.ejections() == 0);
        String file = best.written().text();
        assertThat(file).startsWith("profile: gateway\n").contains("gateway:\n  mode: prod\n");
        assertThat(CheckInputs.read(file, "recommended", null, false)
                        .targets()
                        .get(0)
                        .gateway()
                        .gateway())
                .isEqualTo(best.setting().gateway());
        assertThat(r.recommendationFindings()).noneMatch(f -> f.startsWith("error "));
        assertThat(r.diff()).contains("-  consecutive_failures: 3");
    }

    @Test
    void anActiveHealthCheckRunsInEveryScenarioAndReturnsAPartlyFailingHostTheDetectorEjected() {
        HealthCheckSpec every5s = new HealthCheckSpec(5_000_000_000L, 2, 1);
        List<SuiteScenario> withChecks = four(600, every5s);
        assertThat(withChecks).allMatch(s -> every5s.equals(s.scenario().healthChecks()));
        // the dead host fails its probes as its requests (a 503); the partly failing one passes them
        SuiteScenario dead = withChecks.stream()
                .filter(s -> s.name().equals("one-host-dead-503"))
                .findFirst()
                .orElseThrow();
        assertThat(dead.scenario().faults().get(0).failsHealthCheck()).isTrue();
        SuiteScenario partial = withChecks.stream()
                .filter(s -> s.name().equals("one-host-partial"))
                .findFirst()
                .orElseThrow();
        assertThat(partial.scenario().faults().get(0).failsHealthCheck()).isFalse();
        // consecutive 5xx at 5 and a cap admitting the host: ejected at its run of five, back at the next passing probe
        OutlierDetectionConfig c5 = Setting.builder()
                .consecutive5xx(5)
                .successRateStdevFactor(0)
                .successRateRequestVolume(100)
                .successRateMinimumHosts(5)
                .failurePercentageThreshold(0)
                .failurePercentageRequestVolume(50)
                .failurePercentageMinimumHosts(5)
                .intervalNanos(10_000_000_000L)
                .baseEjectionTimeNanos(30_000_000_000L)
                .maxEjectionPercent(17)
                .build()
                .applyTo(OutlierDetectionConfig.defaults());
        RunFigures without = TuneRuns.figures(
                new TuneRuns.Job(four(600, null).get(0), four(600, null).get(0).with(1, c5, 50, EnvoyVersion.DEFAULT)));
        RunFigures with = TuneRuns.figures(new TuneRuns.Job(partial, partial.with(1, c5, 50, EnvoyVersion.DEFAULT)));
        assertThat(with.failedDuringFault()).isGreaterThan(without.failedDuringFault());
        assertThat(with.ejections()).isGreaterThan(without.ejections());
    }
}
