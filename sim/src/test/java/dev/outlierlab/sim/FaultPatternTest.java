package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.scenario;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The even pattern (docs/model.md): request k of a fault fails iff ((k+1) ppm) div 1e6 > (k ppm) div 1e6. */
class FaultPatternTest {

    private static FaultSpec rate(long ppm) {
        return FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, Long.MAX_VALUE / 2)
                .errorRatePpm(ppm)
                .build();
    }

    private static int longestRun(FaultSpec f, int requests) {
        int longest = 0;
        int run = 0;
        for (long k = 0; k < requests; k++) {
            run = f.fails(k) ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        return longest;
    }

    @Test
    void thirtyThreePercentIsThirtyThreeOfEveryHundredNeverTwoInARow() {
        FaultSpec f = rate(330_000);
        for (int block = 0; block < 50; block++) {
            int failures = 0;
            for (long k = block * 100L; k < block * 100L + 100; k++) {
                if (f.fails(k)) {
                    failures++;
                }
            }
            assertThat(failures).as("block " + block).isEqualTo(33);
        }
        assertThat(longestRun(f, 5000)).isEqualTo(1);
        // the first hundred: floor((k+1) * 0.33) steps up at k + 1 = 4, 7, 10, ..., 100 -> k = 3, 6, ..., 99
        List<Long> failing = new ArrayList<>();
        for (long k = 0; k < 100; k++) {
            if (f.fails(k)) {
                failing.add(k);
            }
        }
        List<Long> expected = new ArrayList<>();
        for (long k = 3; k <= 99; k += 3) {
            expected.add(k);
        }
        assertThat(failing).containsExactlyElementsOf(expected);
    }

    @Test
    void theLongestRunFollowsFromTheRate() {
        // 50 %: pass, fail, pass, fail ... -> 1; 75 %: pass then three fails -> 3; 80 % -> 4;
        // 0 % never fails; 100 % always
        assertThat(longestRun(rate(500_000), 1000)).isEqualTo(1);
        assertThat(longestRun(rate(750_000), 1000)).isEqualTo(3);
        assertThat(longestRun(rate(800_000), 1000)).isEqualTo(4);
        assertThat(longestRun(rate(0), 1000)).isZero();
        assertThat(longestRun(rate(1_000_000), 1000)).isEqualTo(1000);
    }

    @Test
    void aRateWithFourDecimalsFailsOncePerMillion() {
        // 0.0001 % = 1 ppm: only k = 999999 in the first million ((k+1) * 1 div 1e6 becomes 1)
        FaultSpec f = rate(1);
        assertThat(f.fails(0)).isFalse();
        assertThat(f.fails(999_998)).isFalse();
        assertThat(f.fails(999_999)).isTrue();
        assertThat(f.fails(1_000_000)).isFalse();
    }

    @Test
    void theSimulationFailsThirtyThreeOfEveryHundredRequests() {
        // one host, 100 rps for 10 s, 33 % the whole time: 1000 requests, 330 fail; never five in a row, so
        // no detection (and one host at the default cap could not be ejected anyway)
        RunResult r = Simulation.run(scenario(
                1,
                50,
                100,
                10 * S,
                List.of(FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(0, 10 * S)
                        .errorRatePpm(330_000)
                        .build()),
                OutlierDetectionConfig.defaults(),
                null));
        assertThat(r.summary().requests()).isEqualTo(1000);
        assertThat(r.summary().failed()).isEqualTo(330);
        assertThat(r.summary().requestsDuringFault()).isEqualTo(1000);
        assertThat(r.stats()).containsEntry("ejections_detected_consecutive_5xx", 0L);
    }

    @Test
    void theFirstFaultInTheListDecides() {
        // two faults on one host for the whole run: 100 % listed first -> all 100 fail; 0 % first -> none
        FaultSpec all = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 10 * S)
                .errorRatePpm(1_000_000)
                .status(500)
                .build();
        FaultSpec none = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 10 * S)
                .errorRatePpm(0)
                .status(500)
                .build();
        RunResult first = Simulation.run(
                scenario(1, 50, 10, 10 * S, List.of(all, none), OutlierDetectionConfig.defaults(), null));
        RunResult second = Simulation.run(
                scenario(1, 50, 10, 10 * S, List.of(none, all), OutlierDetectionConfig.defaults(), null));
        assertThat(first.summary().failed()).isEqualTo(100);
        assertThat(second.summary().failed()).isZero();
    }

    @Test
    void everyActiveFaultCountsTheRequestEvenWhenAnotherDecides() {
        // A (0 %, [0, 5 s)) is listed first, B (33 %, [0, 10 s)) second; 10 rps, one host. B's counter runs
        // through A's window, so in [5 s, 10 s) B decides for k = 50..99: failures at k = 51, 54, ..., 99 = 17
        // (had it started from 0 it would be 16)
        FaultSpec a = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 5 * S)
                .errorRatePpm(0)
                .status(500)
                .build();
        FaultSpec b = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 10 * S)
                .errorRatePpm(330_000)
                .status(500)
                .build();
        RunResult r =
                Simulation.run(scenario(1, 50, 10, 10 * S, List.of(a, b), OutlierDetectionConfig.defaults(), null));
        assertThat(r.summary().failed()).isEqualTo(17);
    }

    @Test
    void theWindowIsHalfOpenAndCountsOnlyTheHostsRequests() {
        // the injector directly: a 100 % fault on host 1 from 2 s to 3 s
        FaultInjector inj = new FaultInjector(
                List.of(FaultSpec.builder()
                        .hosts(List.of("b"))
                        .window(2 * S, 3 * S)
                        .errorRatePpm(1_000_000)
                        .status(502)
                        .build()),
                Map.of("a", 0, "b", 1));
        assertThat(inj.onRequest(1, 2 * S - 1)).isEqualTo(FaultInjector.PASS);
        assertThat(inj.onRequest(1, 2 * S)).isZero();
        assertThat(inj.onRequest(0, 2 * S)).isEqualTo(FaultInjector.PASS);
        assertThat(inj.onRequest(1, 3 * S - 1)).isZero();
        assertThat(inj.onRequest(1, 3 * S)).isEqualTo(FaultInjector.PASS);
        assertThat(inj.anyActive(3 * S - 1)).isTrue();
        assertThat(inj.anyActive(3 * S)).isFalse();
    }

    @Test
    void aFaultsStatusAndResultReachTheDetector() {
        // status 502 is a gateway failure: five in a row give a gateway detection as well as the 5xx one
        RunResult gateway = failingFor2s(502, null, OutlierDetectionConfig.defaults());
        assertThat(gateway.stats())
                .containsEntry("ejections_detected_consecutive_gateway_failure", 4L)
                .containsEntry("ejections_detected_consecutive_5xx", 4L);
        // status 500: no gateway detection
        RunResult plain = failingFor2s(500, null, OutlierDetectionConfig.defaults());
        assertThat(plain.stats())
                .containsEntry("ejections_detected_consecutive_gateway_failure", 0L)
                .containsEntry("ejections_detected_consecutive_5xx", 4L);
        // a timeout result maps to 504 when origins are not split
        RunResult timeout = failingFor2s(500, RequestResult.LOCAL_ORIGIN_TIMEOUT, OutlierDetectionConfig.defaults());
        assertThat(timeout.stats()).containsEntry("ejections_detected_consecutive_gateway_failure", 4L);
        // with split origins it is a local-origin failure instead, but Envoy's router reports a connect success
        // before every timeout, so the consecutive local-origin count never passes 1 (fidelity case R7)
        RunResult split = failingFor2s(
                500,
                RequestResult.LOCAL_ORIGIN_TIMEOUT,
                Scenarios.config(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, true));
        assertThat(split.stats())
                .containsEntry("ejections_detected_consecutive_local_origin_failure", 0L)
                .containsEntry("ejections_detected_" + EjectionType.CONSECUTIVE_5XX.statSuffix(), 0L);
        // a connection that cannot be made reports the connect failure alone: five in a row are detected
        RunResult refused = failingFor2s(
                500,
                RequestResult.LOCAL_ORIGIN_CONNECT_FAILED,
                Scenarios.config(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, true));
        assertThat(refused.stats()).containsEntry("ejections_detected_consecutive_local_origin_failure", 4L);
    }

    @Test
    void longestFailureRunMatchesThePatternExactly() {
        assertThat(FaultSpec.longestFailureRun(0)).isZero();
        assertThat(FaultSpec.longestFailureRun(330_000)).isEqualTo(1);
        assertThat(FaultSpec.longestFailureRun(500_000)).isEqualTo(1);
        assertThat(FaultSpec.longestFailureRun(700_000)).isEqualTo(3);
        assertThat(FaultSpec.longestFailureRun(750_000)).isEqualTo(3);
        assertThat(FaultSpec.longestFailureRun(800_000)).isEqualTo(4);
        assertThat(FaultSpec.longestFailureRun(1_000_000)).isEqualTo(Long.MAX_VALUE);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200; i++) {
            long ppm = random.nextLong(1, 999_000);
            FaultSpec f = rate(ppm);
            long run = 0;
            long longest = 0;
            for (long k = 0; k < 2_000_000; k++) {
                run = f.fails(k) ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            assertThat(longest).as("ppm %d", ppm).isEqualTo(f.longestFailureRun());
        }
    }

    /** One host failing every request with {@code status} (or {@code result}) for 2 s at 50 rps, 10 callers. */
    private static RunResult failingFor2s(int status, RequestResult result, OutlierDetectionConfig config) {
        FaultSpec fault = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 2 * S)
                .errorRatePpm(1_000_000)
                .status(status)
                .result(result)
                .build();
        return Simulation.run(scenario(1, 50, 10, 2 * S, List.of(fault), config, null));
    }
}
