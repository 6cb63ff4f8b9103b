package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every Envoy release the lab models, 1.26 to 1.40, can be tuned: the candidates carry only the fields the release
 * has, so no run is refused for a field the release lacks, and the recommended file says nothing that release would
 * reject ({@code successful_active_health_check_uneject_host} before 1.28, {@code always_eject_one_host} before
 * 1.31), neither in the file nor in the JSON's {@code setting}.
 */
class EveryReleaseTuneTest {
    private static List<SuiteScenario> suite(HealthCheckSpec health) {
        return new DefaultSuite(4, 80, 1, 0, health)
                .scenarios().stream()
                        .filter(s -> s.name().equals("one-host-partial"))
                        .toList();
    }

    @Test
    void eachReleaseFrom126To140IsTunedAndItsFileHasOnlyTheReleasesFields() {
        for (int minor = 26; minor <= 40; minor++) {
            EnvoyVersion v = new EnvoyVersion(1, minor);
            HealthCheckSpec health = minor % 2 == 0 ? new HealthCheckSpec(5_000_000_000L, 3, 2) : null;
            TuneRequest req = TuneRequest.builder()
                    .name("search")
                    .hosts(4)
                    .rps(80)
                    .clients(1)
                    .target(EnvoyTarget.ENVOY)
                    .envoyVersion(v)
                    .current(OutlierDetectionConfig.defaults())
                    .currentPanicPercent(50)
                    .suite(suite(health))
                    .screenSeeds(1)
                    .seeds(1)
                    .maxEjected(1)
                    .baseErrorPpm(0)
                    .threads(2)
                    .healthChecks(health)
                    .build();
            TuneResult r = Tuner.tune(req, u -> {});
            String text = r.recommended().written().text();
            assertThat(text.contains("successful_active_health_check_uneject_host"))
                    .as(v + "\n" + text)
                    .isEqualTo(minor >= 28);
            assertThat(text.contains("always_eject_one_host"))
                    .as(v + "\n" + text)
                    .isEqualTo(minor >= 31);
            // the JSON's setting of every row says the same fields as the file: none the release lacks
            ObjectNode json = TuneJson.tree(r);
            assertThat(json.get("recommended").get("setting").has("always_eject_one_host"))
                    .as(v + " recommended setting " + json.get("recommended").get("setting"))
                    .isEqualTo(minor >= 31);
            assertThat(json.get("current").get("setting").has("always_eject_one_host"))
                    .as(v + " current setting")
                    .isEqualTo(minor >= 31);
            // before 1.28 a passing health check always returns an ejected host (no field to stop it), so the partly
            // failing host comes back within seconds; from 1.28 the search can set the field to false
            assertThat(r.recommended().benefitPercent())
                    .as(v + " " + r.recommended().setting().label())
                    .isGreaterThan(health != null && minor < 28 ? 0 : 50);
            if (health != null && minor >= 28) {
                assertThat(r.recommended().setting().keepOnPassingCheck())
                        .as(v.toString())
                        .isTrue();
                assertThat(text).as(v.toString()).contains("successful_active_health_check_uneject_host: false");
            }
            // the file read back and run under that release: the engine refuses a field the release lacks
            OutlierDetectionConfig read = CheckInputs.read(text, "recommended", null, false)
                    .targets()
                    .get(0)
                    .config();
            v.checkFieldsExist(read);
        }
    }
}
