package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every candidate the search can recommend, for every target, is written in the target's own format, read back by
 * that target's reader to the same setting, and checked by {@code check}'s rules without an error.
 */
class TargetRoundTripTest {
    private static TuneRequest request(Target target, int clients) {
        return TuneRequest.builder()
                .name("search")
                .hosts(6)
                .rps(600)
                .clients(clients)
                .target(target)
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(OutlierDetectionConfig.defaults())
                .currentPanicPercent(50)
                .suite(new DefaultSuite(6, 600, clients, 0).scenarios())
                .screenSeeds(2)
                .seeds(8)
                .maxEjected(2)
                .baseErrorPpm(0)
                .threads(1)
                .build();
    }

    @Test
    void everyCandidateOfEveryTargetReadsBackAsItselfAndChecksWithoutErrors() {
        for (Target target : EnvoyTarget.values()) { // gRPC's and the gateway's files: ProfileTargetsTest
            TuneRequest req = request(target, 1);
            List<Setting> candidates = SearchSpace.candidates(req);
            assertThat(candidates).as(target.flag()).hasSizeGreaterThan(5);
            for (Setting s : candidates) {
                Target.Written w = target.write(s, "search", 6, req.current(), 50);
                List<CheckTarget> read =
                        CheckInputs.read(w.text(), "written", null, false).targets();
                assertThat(read).as(target.flag() + " " + s.label()).hasSize(1);
                assertThat(Setting.of(read.get(0).config()))
                        .as(target.flag() + "\n" + w.text())
                        .isEqualTo(s);
                assertThat(Explanation.findings(req, w))
                        .as(target.flag() + " " + s.label())
                        .noneMatch(f -> f.startsWith("error "));
            }
        }
    }

    @Test
    void eachTargetSearchesOnlyWhatItCanExpress() {
        List<Setting> istio = SearchSpace.candidates(request(EnvoyTarget.ISTIO, 1));
        assertThat(istio)
                .allMatch(s -> s.successRateStdevFactor() == 0
                        && s.failurePercentageThreshold() == 0
                        && !s.alwaysEjectOneHost());
        List<Setting> gateway = SearchSpace.candidates(request(EnvoyTarget.ENVOY_GATEWAY, 1));
        // Envoy Gateway cannot turn success rate off nor consecutive 5xx
        assertThat(gateway).allMatch(s -> s.successRateStdevFactor() == 1900 && s.consecutive5xx() > 0);
        assertThat(gateway).anyMatch(Setting::alwaysEjectOneHost);
        List<Setting> kuma = SearchSpace.candidates(request(EnvoyTarget.KUMA, 1));
        assertThat(kuma).noneMatch(Setting::alwaysEjectOneHost).anyMatch(s -> s.successRateStdevFactor() > 0);
        List<Setting> envoy = SearchSpace.candidates(request(EnvoyTarget.ENVOY, 1));
        // 17 % admits one host of six, 34 % two (100 * (active + 1) / 6 <= max); always-eject-one with the cap at 10
        assertThat(envoy).extracting(Setting::maxEjectionPercent).containsOnly(17L, 34L, 10L);
        assertThat(envoy).filteredOn(s -> s.maxEjectionPercent() == 10).allMatch(Setting::alwaysEjectOneHost);
        // always_eject_one_host arrived in 1.31 (1.30's Envoy rejects the field), so 1.30 is searched without it
        TuneRequest v130 = request(EnvoyTarget.ENVOY, 1).toBuilder()
                .envoyVersion(new EnvoyVersion(1, 30))
                .build();
        assertThat(SearchSpace.candidates(v130))
                .noneMatch(Setting::alwaysEjectOneHost)
                .extracting(Setting::maxEjectionPercent)
                .containsOnly(17L, 34L);
        assertThat(SearchSpace.candidates(request(EnvoyTarget.ENVOY, 1).toBuilder()
                        .envoyVersion(new EnvoyVersion(1, 31))
                        .build()))
                .anyMatch(Setting::alwaysEjectOneHost);
        // 1.26's cap rule admits one host from 1 %
        TuneRequest old = request(EnvoyTarget.ENVOY, 1).toBuilder()
                .envoyVersion(new EnvoyVersion(1, 26))
                .build();
        assertThat(SearchSpace.candidates(old))
                .noneMatch(Setting::alwaysEjectOneHost)
                .extracting(Setting::maxEjectionPercent)
                .containsOnly(1L, 17L);
    }

    @Test
    void fiftyCallersLeaveSuccessRateTooLittleVolumeAndTheSearchTriesALongerInterval() {
        TuneRequest req = request(EnvoyTarget.ENVOY, 50);
        assertThat(req.perHostPerInterval(10_000_000_000L)).isEqualTo(20);
        List<String> detectors = DetectorReach.of(req);
        assertThat(detectors.get(0))
                .startsWith(
                        "success rate cannot run: each host gets 20 requests per 10s interval "
                                + "from each of the 50 callers, under success_rate_request_volume 100; a 30s interval with a volume of 48");
        assertThat(detectors.get(1)).contains("it can with a volume of 16");
        assertThat(detectors.get(2)).startsWith("consecutive 5xx can run");
        List<Setting> candidates = SearchSpace.candidates(req);
        assertThat(candidates)
                .filteredOn(s -> s.intervalNanos() == 10_000_000_000L)
                .allMatch(s -> s.successRateStdevFactor() == 0);
        assertThat(candidates)
                .filteredOn(s -> s.intervalNanos() == 30_000_000_000L)
                .anyMatch(s -> s.successRateStdevFactor() > 0 && s.successRateRequestVolume() == 48);
    }

    @Test
    void theIstioFileKeepsAPanicThresholdTheCurrentRuleHas() {
        Setting s = Setting.of(OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0)
                .build());
        Target.Written w = EnvoyTarget.ISTIO.write(s, "Reviews.Default", 6, OutlierDetectionConfig.defaults(), 30);
        assertThat(w.text())
                .contains("name: reviews-default")
                .contains("minHealthPercent: 30")
                .contains("maxEjectionPercent: 34");
        assertThat(w.panicThresholdPercent()).isEqualTo(30);
    }

    @Test
    void anIstioRuleWithExtremeIntervalAndEjectionTimeIsAlsoSearchedAtEnvoysDefaults() {
        OutlierDetectionConfig extreme = OutlierDetectionConfig.builder()
                .set(OutlierSetting.INTERVAL, 300_000_000_000L)
                .set(OutlierSetting.BASE_EJECTION_TIME, 1_000_000_000L)
                .build();
        TuneRequest req = TuneRequest.builder()
                .name("search")
                .hosts(6)
                .rps(600)
                .clients(1)
                .target(EnvoyTarget.ISTIO)
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(extreme)
                .currentPanicPercent(0)
                .suite(new DefaultSuite(6, 600, 1, 0).scenarios())
                .screenSeeds(2)
                .seeds(8)
                .maxEjected(2)
                .baseErrorPpm(0)
                .threads(1)
                .build();
        List<Setting> candidates = SearchSpace.candidates(req);
        assertThat(candidates).anyMatch(s -> s.intervalNanos() == 10_000_000_000L);
        assertThat(candidates).anyMatch(s -> s.baseEjectionTimeNanos() == 30_000_000_000L);
        assertThat(candidates).anyMatch(s -> s.intervalNanos() == 300_000_000_000L);
    }
}
