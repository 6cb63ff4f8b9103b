package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A route that retries a timed-out try on another host ({@code retry_on: 5xx}, {@code num_retries: 1},
 * {@code per_try_timeout: 2s}, other hosts preferred) hides a timing-out host's failures from its callers but not the
 * wait: with detection off no request fails in one-host-timeout (6 hosts at 300 requests a second, host-0 timing out
 * every request from 30 s to 240 s), and counting failures alone there was nothing to remove, so the scenario was left
 * out of the benefit and detection off scored like the setting that takes the host out. Counted as slow requests, the
 * wait is the harm: the round robin's index moves on for the retry too, so one request in 5 of the fault starts on
 * host-0 (6 picks for 5 requests), 12,600 of the 63,000 requests sent in the fault, 140.0 per 1,000 of the run's 90,000,
 * each waiting 2 s; a setting that ejects host-0 spares most of them.
 */
class EnvoyRetryWaitTuneTest {
    private static final RetrySpec ROUTE = new RetrySpec(
            Set.of("5xx"), 1, List.of(), true, 5, "route", 2 * Durations.SECOND, RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS);
    private static final Set<String> SCENARIOS = Set.of("one-host-timeout", "shared-outage");

    private static TuneResult result;

    @BeforeAll
    static void tune() {
        RoutingSpec routes = RoutingSpec.NONE.withRetries(ROUTE);
        List<SuiteScenario> suite = new DefaultSuite(6, 300, 1, 0)
                .scenarios().stream()
                        .filter(s -> SCENARIOS.contains(s.name()))
                        .map(s -> s.routedBy(routes))
                        .toList();
        result = Tuner.tune(EnvoyRequests.defaults(6, 300, suite).threads(2).build(), u -> {});
    }

    @Test
    void detectionOffFailsNothingButLeavesOneRequestInFiveWaitingThePerTryTimeout() {
        ScenarioScore sc = result.recommended().score("one-host-timeout");
        for (int i = 0; i < sc.off().size(); i++) {
            RunFigures off = sc.off().get(i);
            assertThat(off.failed()).isEqualTo(sc.correct().get(i).failed()).isZero();
            assertThat(off.delayedRequests()).isEqualTo(12_600);
            assertThat(off.delayNanos()).isEqualTo(12_600 * 2 * Durations.SECOND);
        }
        assertThat(sc.slowPerThousand(true)).isCloseTo(140.0, within(0.05));
        // the share removed now has something to remove: the slow requests
        assertThat(sc.removedPercent()).isGreaterThan(90);
        assertThat(sc.slowPerThousand(false)).isLessThan(sc.slowPerThousand(true) / 10);
        assertThat(result.recommended().benefitPercent()).isGreaterThan(90);
        // Envoy's defaults (a cap of 10 %, which admits no host of 6) leave every one of them waiting: 0 % removed,
        // where counting failures alone had nothing to score
        ScenarioScore current = result.current().score("one-host-timeout");
        assertThat(current.slowPerThousand(false)).isEqualTo(current.slowPerThousand(true));
        assertThat(current.removedPercent()).isZero();
    }

    @Test
    void theScorecardTheJsonAndTheWhySayWhatWaits() {
        String text = TuneText.render(result);
        assertThat(text).contains("slow/1k");
        assertThat(text).contains("avoidable failures and slow requests");
        String json = TuneJson.write(result);
        assertThat(json).contains("\"slow_per_thousand_off\" : 140,");
        assertThat(json).contains("\"slow_correct\" : 0");
        assertThat(result.why()).contains("slow requests, each counted as a failure");
    }
}
