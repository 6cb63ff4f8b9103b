package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code check} on a standalone gateway configuration: each finding with its numbers, fix and line. */
class GatewayCheckTest {
    private static List<Finding> check(String yaml, Integer hosts, Long rps) {
        CheckInputs.Loaded loaded = CheckInputs.read(yaml, "gw.yaml", null, false);
        return CheckReport.ofFiles("gw.yaml", List.of(loaded), hosts, rps).findings();
    }

    private static Finding only(List<Finding> findings, GatewayRule rule) {
        List<Finding> of = findings.stream().filter(f -> f.rule() == rule).toList();
        assertThat(of)
                .as("findings %s", findings.stream().map(f -> f.rule().id()).toList())
                .hasSize(1);
        return of.get(0);
    }

    private static List<CheckRule> rules(List<Finding> findings) {
        return findings.stream().map(Finding::rule).toList();
    }

    @Test
    void aFileWithAGatewaySectionIsReadAsAGatewayConfiguration() {
        CheckInputs.Loaded loaded = CheckInputs.read("gateway:\n  mode: prod\n", "gw.yaml", null, false);
        assertThat(loaded.targets()).hasSize(1);
        assertThat(loaded.targets().get(0).gateway()).isNotNull();
        assertThat(loaded.targets().get(0).style()).isEqualTo(FixStyle.GATEWAY);
        assertThat(loaded.targets().get(0).hosts()).isNull();
    }

    @Test
    void statisticalRuleCannotFireWithTwoToFourEndpointsAtFactorTwo() {
        String yaml = "gateway:\n  stdev_factor: 2\nrouting:\n  fallbacks: 1\n";
        for (int n = 2; n <= 4; n++) {
            Finding f = only(check(yaml, n, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
            assertThat(f.severity()).isEqualTo(Severity.WARNING);
            assertThat(f.line()).isEqualTo(2);
            assertThat(f.numbers())
                    .containsEntry("endpoints", (long) n)
                    .containsEntry("max_stdevs_from_mean", Math.round(Math.sqrt(n - 1) * 100) / 100.0)
                    .containsEntry("smallest_endpoints_that_can_eject", 6L);
            assertThat(f.message()).contains("can never fire");
        }
        Finding two = only(check(yaml, 2, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        assertThat(two.numbers()).containsEntry("largest_factor_that_can_eject", 0.9);
        assertThat(two.fix()).isEqualTo("gateway:\n  stdev_factor: 0.9   # below sqrt(1); or run 6 endpoints\n");
        Finding four = only(check(yaml, 4, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        assertThat(four.numbers()).containsEntry("largest_factor_that_can_eject", 1.7);
    }

    @Test
    void fiveEndpointsFireOnlyByARoundingTieAndSixCanFire() {
        String yaml = "gateway:\n  stdev_factor: 2\nrouting:\n  fallbacks: 1\n";
        Finding five = only(check(yaml, 5, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        assertThat(five.message()).contains("sqrt(4) = 2.000").contains("only by a rounding tie");
        assertThat(five.numbers()).containsEntry("largest_factor_that_can_eject", 1.9);
        assertThat(rules(check(yaml, 6, null))).doesNotContain(GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        // a factor of 1.5 fires from 4 endpoints (sqrt(3) = 1.73 > 1.5) but not with 3 (sqrt(2) = 1.41)
        String lower = "gateway:\n  stdev_factor: 1.5\nrouting:\n  fallbacks: 1\n";
        assertThat(rules(check(lower, 4, null))).doesNotContain(GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        assertThat(only(check(lower, 3, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE)
                        .numbers())
                .containsEntry("smallest_endpoints_that_can_eject", 4L);
        assertThat(GatewayChecker.smallestEndpointsThatCanEject(0.5)).isEqualTo(2);
        assertThat(GatewayChecker.smallestEndpointsThatCanEject(1.0)).isEqualTo(3);
    }

    @Test
    void withoutTheEndpointCountTheSmallestWorkingCountIsANote() {
        Finding f = only(check("gateway:\n  mode: prod\n", null, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        assertThat(f.severity()).isEqualTo(Severity.NOTE);
        assertThat(f.numbers()).containsEntry("smallest_endpoints_that_can_eject", 6L);
        assertThat(f.message()).contains("pass --hosts N");
    }

    @Test
    void theEndpointCountComesFromClusterHostsOrHostsOverridesIt() {
        String yaml = "cluster:\n  hosts: [azure, openai, bedrock]\ngateway:\n  mode: prod\n";
        assertThat(only(check(yaml, null, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE)
                        .numbers())
                .containsEntry("endpoints", 3L);
        assertThat(rules(check(yaml, 8, null))).doesNotContain(GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
    }

    @Test
    void twoEndpointsWithPeerSetOthersAreBelowMinStdev() {
        Finding f = only(check("gateway:\n  peer_set: others\n", 2, null), GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
        assertThat(f.numbers()).containsEntry("peer_set", "others").containsEntry("min_stdev", 1.0);
        assertThat(rules(check("gateway:\n  peer_set: others\n  min_stdev: 0\n", 2, null)))
                .doesNotContain(GatewayRule.STATISTICAL_RULE_CANNOT_FIRE);
    }

    @Test
    void oneEndpointIsTheOnlyFinding() {
        List<Finding> f = check("cluster:\n  hosts: [only]\ngateway:\n  consecutive_failures: 1\n", null, 100L);
        assertThat(rules(f)).containsExactly(GatewayRule.SINGLE_ENDPOINT);
        assertThat(f.get(0).line()).isEqualTo(2);
        assertThat(f.get(0).numbers()).containsEntry("endpoints", 1L);
    }

    @Test
    void minRequestsNeverReachedWithinTheWindow() {
        // 2 rps over 4 endpoints, 10 s window: 5 attempts per endpoint per window, below min_requests 6
        String yaml = "gateway:\n  window: 10s\n  min_requests: 6\n  stdev_factor: 1\n";
        Finding f = only(check(yaml, 4, 2L), GatewayRule.MIN_REQUESTS_UNREACHABLE);
        assertThat(f.numbers())
                .containsEntry("attempts_per_endpoint_per_window", 5.0)
                .containsEntry("min_requests", 6L)
                .containsEntry("window_needed_seconds", 12L);
        assertThat(f.line()).isEqualTo(3);
        assertThat(f.fix()).isEqualTo("gateway:\n  window: 12s   # or min_requests: 5\n");
        // exactly enough: 12 s gives 6
        assertThat(rules(check(yaml.replace("10s", "12s"), 4, 2L)))
                .doesNotContain(GatewayRule.MIN_REQUESTS_UNREACHABLE);
        // without --rps it is not judged
        assertThat(rules(check(yaml, 4, null))).doesNotContain(GatewayRule.MIN_REQUESTS_UNREACHABLE);
        // two processes halve each window's attempts
        String twoProcesses = "gateway:\n  window: 12s\n  min_requests: 6\n  stdev_factor: 1\n  processes: 2\n";
        assertThat(only(check(twoProcesses, 4, 2L), GatewayRule.MIN_REQUESTS_UNREACHABLE)
                        .numbers())
                .containsEntry("attempts_per_endpoint_per_window", 3.0)
                .containsEntry("window_needed_seconds", 24L);
    }

    @Test
    void weightedRoutingJudgesTheLightestEndpoint() {
        // weights 1:3 at 4 rps over 10 s: the light endpoint gets 10 attempts, below 12
        String yaml = "gateway:\n  window: 10s\n  min_requests: 12\n  stdev_factor: 0.5\n"
                + "routing:\n  strategy: weighted\n  weights: [1, 3]\n";
        assertThat(only(check(yaml, 2, 4L), GatewayRule.MIN_REQUESTS_UNREACHABLE)
                        .numbers())
                .containsEntry("attempts_per_endpoint_per_window", 10.0);
    }

    @Test
    void weightsThatDoNotMatchHostsAreBadInput() {
        String yaml = "gateway:\n  mode: prod\nrouting:\n  strategy: weighted\n  weights: [1, 3]\n";
        assertThatThrownBy(() -> check(yaml, 3, null))
                .isInstanceOf(InputException.class)
                .hasMessage("gw.yaml:5: routing.weights: [1, 3] is not allowed; expected one positive whole number "
                        + "per endpoint (3 endpoints, 2 weights)");
    }

    @Test
    void orderedRoutingStarvesThePeers() {
        Finding f = only(
                check("gateway:\n  stdev_factor: 1\nrouting:\n  strategy: ordered\n  fallbacks: 1\n", 3, 600L),
                GatewayRule.ORDERED_STARVES_PEERS);
        assertThat(f.line()).isEqualTo(4);
        assertThat(f.numbers()).containsEntry("strategy", "ordered").containsEntry("endpoints", 3L);
        assertThat(f.fix()).contains("strategy: round_robin");
        assertThat(rules(check("gateway:\n  stdev_factor: 1\n", 3, 600L)))
                .doesNotContain(GatewayRule.ORDERED_STARVES_PEERS);
    }

    @Test
    void consecutiveFailuresOneIsAHairTrigger() {
        Finding f = only(check("gateway:\n  consecutive_failures: 1\n", 6, 600L), GatewayRule.HAIR_TRIGGER);
        // 1 % background errors: a failure every 100 attempts; 600 rps over 6 endpoints is 100/s each: 1 s
        assertThat(f.numbers())
                .containsEntry("expected_attempts_to_an_ejection", 100L)
                .containsEntry("seconds_at_rps_per_endpoint", 1.0);
        assertThat(f.fix()).isEqualTo("gateway:\n  consecutive_failures: 3   # the gateway's default\n");
        assertThat(rules(check("gateway:\n  consecutive_failures: 2\n", 6, 600L)))
                .doesNotContain(GatewayRule.HAIR_TRIGGER);
    }

    @Test
    void noFallbacksIsANoteAboutCallers() {
        Finding f =
                only(check("gateway:\n  mode: prod\nrouting:\n  fallbacks: 0\n", 6, null), GatewayRule.NO_FALLBACKS);
        assertThat(f.severity()).isEqualTo(Severity.NOTE);
        assertThat(f.line()).isEqualTo(4);
        assertThat(rules(check("gateway:\n  mode: prod\nrouting:\n  fallbacks: 2\n", 6, null)))
                .doesNotContain(GatewayRule.NO_FALLBACKS);
    }

    @Test
    void modeOffSaysOnlyThatAndShadowIsANote() {
        List<Finding> off = check("gateway:\n  mode: \"off\"\n  consecutive_failures: 1\n", 2, null);
        assertThat(rules(off)).containsExactly(GatewayRule.MODE_OFF);
        assertThat(off.get(0).line()).isEqualTo(2);
        // YAML 1.1 reads an unquoted off as false: the same mode
        assertThat(rules(check("gateway:\n  mode: off\n", 2, null))).containsExactly(GatewayRule.MODE_OFF);
        Finding shadow = only(check("gateway:\n  mode: shadow\n", 6, null), GatewayRule.MODE_SHADOW);
        assertThat(shadow.severity()).isEqualTo(Severity.NOTE);
        assertThat(shadow.fix()).contains("mode: prod");
    }

    @Test
    void theSeedsSixProvidersWithAFallbackHaveNoFindings() {
        assertThat(check("gateway:\n  mode: prod\nrouting:\n  fallbacks: 1\n", 6, 600L))
                .isEmpty();
    }

    @Test
    void badValuesGiveTheKeyTheValueAndTheLine() {
        assertThatThrownBy(() -> check("gateway:\n  mode: sideways\n", null, null))
                .isInstanceOf(InputException.class)
                .hasMessage("gw.yaml:2: gateway.mode: \"sideways\" is not allowed; expected one of off, shadow, prod");
        assertThatThrownBy(() -> check("gateway:\n  window: 90s\n  bucket: 7s\n", null, null))
                .isInstanceOf(InputException.class)
                .hasMessage("gw.yaml:2: gateway.window: 90s is not allowed; expected a whole number of buckets "
                        + "(bucket is 7s), such as 84s");
        assertThatThrownBy(() -> check("gateway:\n  stdev_factor: -1\n", null, null))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("gateway.stdev_factor")
                .hasMessageContaining(":2:");
    }
}
