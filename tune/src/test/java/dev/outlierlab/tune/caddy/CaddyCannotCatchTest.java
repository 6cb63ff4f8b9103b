package dev.outlierlab.tune.caddy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DefaultSuite;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.TuneJson;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.tune.TuneResult;
import dev.outlierlab.tune.Tuner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Tuned from Caddy's defaults (3 upstreams, 100 rps, one seed) on one-host-timeout, slow-host-timeouts and
 * one-host-partial: a host that does not answer is never counted without the transport's
 * {@code response_header_timeout}, which the search does not set, and the "cannot catch" lines say so; a 503 host's
 * line does not.
 */
class CaddyCannotCatchTest {
    private static final Set<String> SCENARIOS = Set.of("one-host-timeout", "slow-host-timeouts", "one-host-partial");

    private static TuneResult tune(CurrentSettings cur) {
        List<SuiteScenario> suite = new DefaultSuite(3, 100, 1, 0)
                .scenarios().stream().filter(s -> SCENARIOS.contains(s.name())).toList();
        TuneRequest req = TuneRequest.builder()
                .name("search")
                .hosts(3)
                .rps(100)
                .clients(1)
                .target(CaddyTuneTarget.INSTANCE)
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(cur.config())
                .currentPanicPercent(cur.panicThresholdPercent())
                .suite(suite)
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(TuneRequest.defaultMaxEjected(3))
                .baseErrorPpm(0)
                .threads(2)
                .currentProfile(cur.profile())
                .build();
        return Tuner.tune(req, u -> {});
    }

    private static String line(List<String> lines, String scenario) {
        return lines.stream()
                .filter(l -> l.startsWith(scenario + " ("))
                .findFirst()
                .orElseThrow(() -> new AssertionError(scenario + " not in " + lines));
    }

    @Test
    void theTimeoutScenariosSayCaddyCountsNoUnansweredTryWithoutResponseHeaderTimeout() {
        TuneResult r = tune(CaddyTuneTarget.INSTANCE.defaults("search", 3));
        JsonNode json = TuneJson.tree(r).get("cannot_catch");
        List<String> fromJson = new ArrayList<>();
        json.forEach(n -> fromJson.add(n.asText()));
        for (List<String> lines : List.of(r.cannotCatch(), fromJson)) {
            for (String scenario : List.of("one-host-timeout", "slow-host-timeouts")) {
                assertThat(line(lines, scenario))
                        .contains(
                                "no admissible setting on the front removes more than 0.0 % of its avoidable failures")
                        .contains("; Caddy counts no failure for a try that does not answer unless the http transport "
                                + "sets response_header_timeout")
                        .contains("the search does not set it: it is a transport setting, and every legitimate "
                                + "response slower than it would fail and count too")
                        .contains("transport http { response_header_timeout 5s }");
            }
        }
        // a host answering 503s is counted: its line, if any, gives no such reason
        r.cannotCatch().stream()
                .filter(l -> l.startsWith("one-host-partial ("))
                .forEach(l -> assertThat(l).doesNotContain("response_header_timeout"));
    }

    @Test
    void withTheTimeoutSetTheReasonIsNotGiven() {
        CaddyPassiveConfig timed = ((CaddyRun)
                        CaddyTuneTarget.INSTANCE.defaults("search", 3).profile())
                .config()
                .withResponseHeaderTimeout(2 * Durations.SECOND);
        SuiteScenario hang = SuiteScenario.named(new DefaultSuite(3, 100, 1, 0).scenarios(), "one-host-timeout", "x");
        SuiteScenario partial =
                SuiteScenario.named(new DefaultSuite(3, 100, 1, 0).scenarios(), "one-host-partial", "x");
        assertThat(CaddyTuneTarget.INSTANCE.cannotCatch(new CaddyRun(timed), hang))
                .isNull();
        assertThat(CaddyTuneTarget.INSTANCE.cannotCatch(new CaddyRun(timed.withResponseHeaderTimeout(0)), hang))
                .startsWith("Caddy counts no failure for a try that does not answer");
        assertThat(CaddyTuneTarget.INSTANCE.cannotCatch(new CaddyRun(timed.withResponseHeaderTimeout(0)), partial))
                .isNull();
    }
}
