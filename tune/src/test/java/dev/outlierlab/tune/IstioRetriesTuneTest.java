package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * tune for an Istio DestinationRule scores what the callers see: istiod gives every route two retries on
 * {@code connect-failure,refused-stream,...,retriable-status-codes} with 503 retriable and other hosts preferred
 * ({@code DefaultPolicy} in {@code pilot/pkg/networking/core/route/retry/retry.go}), so a host refusing connections
 * or answering 503 fails attempts (what the detectors see) while the callers' requests succeed on another pod. The
 * objective counts the callers' failures, and the scorecard shows the attempts' beside them.
 */
class IstioRetriesTuneTest {
    private static final Path RULE = Path.of("../docs/examples/reviews-destination-rule.yaml");
    private static final Set<String> SCENARIOS =
            Set.of("one-host-refused", "one-host-dead-503", "one-host-timeout", "shared-outage");

    private static CurrentSettings current;
    private static RoutingSpec routes;
    private static TuneResult result;

    @BeforeAll
    static void tune() throws Exception {
        current = CurrentSettings.read(Files.readString(RULE), RULE.toString());
        routes = TargetRoutes.of(current);
        List<SuiteScenario> suite = new DefaultSuite(6, 300, 1, 0)
                .scenarios().stream()
                        .filter(s -> SCENARIOS.contains(s.name()))
                        .map(s -> s.routedBy(routes))
                        .toList();
        TuneRequest req = TuneRequest.builder()
                .name(current.name())
                .source(current.source())
                .hosts(6)
                .rps(300)
                .clients(1)
                .target(EnvoyTarget.ISTIO)
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(current.config())
                .currentPanicPercent(current.panicThresholdPercent())
                .suite(suite)
                .screenSeeds(1)
                .seeds(2)
                .maxEjected(2)
                .baseErrorPpm(0)
                .threads(2)
                .build();
        result = Tuner.tune(req, u -> {});
    }

    @Test
    void theRulesRoutesGetIstiodsLeastRequestAndDefaultRetries() {
        assertThat(current.target()).isEqualTo(EnvoyTarget.ISTIO);
        assertThat(routes.lbPolicy()).isEqualTo(LbPolicy.LEAST_REQUEST);
        assertThat(routes.retries()).isEqualTo(RetrySpec.ISTIO_DEFAULT);
        assertThat(TargetRoutes.of(CurrentSettings.defaults("search"))).isNull();
    }

    @Test
    void aRefusingHostFailsAttemptsButAlmostNoCallersRequest() {
        for (String name : List.of("one-host-refused", "one-host-dead-503")) {
            ScenarioScore s = result.current().score(name);
            assertThat(s.retried()).as(name).isTrue();
            for (RunFigures f : s.runs()) {
                assertThat(f.upstreamFailed()).as(name).isPositive();
                assertThat(f.upstreamAttempts()).as(name).isGreaterThan(f.requests());
                // a retry lands on another pod (previous_hosts): a request fails only if three attempts all fail
                assertThat(f.failed() * 100).as(name).isLessThan(f.upstreamFailed());
            }
            // detection off: every request to the bad pod is retried elsewhere, so the callers see almost nothing
            for (RunFigures off : s.off()) {
                assertThat(off.failed() * 100).as(name).isLessThan(off.upstreamFailed());
            }
            assertThat(s.upstreamFailedPercent()).as(name).isGreaterThan(s.failedPercentDuringFault(false));
        }
    }

    @Test
    void aHangingPodIsNotRetriedSoItsRequestsFailRatherThanWait() {
        // istiod's routes have no per-try timeout and no route timeout (route.go's setTimeout writes 0 s): a try that
        // does not answer holds its request until the caller gives up, and the default retries never retry it
        ScenarioScore s = result.current().score("one-host-timeout");
        for (int i = 0; i < s.off().size(); i++) {
            RunFigures off = s.off().get(i);
            assertThat(off.failed()).isEqualTo(off.upstreamFailed()).isPositive();
            assertThat(off.delayedRequests()).isZero();
            assertThat(s.runs().get(i).delayedRequests()).isZero();
        }
        assertThat(s.delayed()).isFalse();
    }

    @Test
    void theScorecardShowsTheAttemptsFailuresBesideTheCallers() {
        String text = TuneText.render(result);
        assertThat(text).contains("upstream %");
        assertThat(text).contains("failed: requests that failed for their callers, after the route's retries");
    }
}
