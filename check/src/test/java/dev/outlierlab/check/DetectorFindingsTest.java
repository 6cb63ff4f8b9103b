package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The findings about which detectors can eject, when, and how fast: each with the numbers it gives. */
class DetectorFindingsTest {

    /** A static cluster with {@code hosts} endpoints and this outlier_detection body (indented two spaces). */
    static String cluster(int hosts, String outlier) {
        StringBuilder sb = new StringBuilder("name: search\ntype: STATIC\nconnect_timeout: 1s\n"
                + "load_assignment:\n  cluster_name: search\n  endpoints:\n  - lb_endpoints:\n");
        for (int i = 0; i < hosts; i++) {
            sb.append("    - endpoint: {address: {socket_address: {address: 10.0.0.")
                    .append(i + 1)
                    .append(", port_value: 80}}}\n");
        }
        sb.append("outlier_detection:").append(outlier.isEmpty() ? " {}\n" : "\n" + outlier);
        return sb.toString();
    }

    static List<Finding> check(String text, Integer hosts, Long rps) {
        return CheckReport.of("c.yaml", CheckTargets.read(text, "c.yaml", null), hosts, rps)
                .findings();
    }

    static Finding only(List<Finding> findings, Rule rule) {
        List<Finding> f = findings.stream().filter(x -> x.rule() == rule).toList();
        assertThat(f).as("%s in %s", rule, findings).hasSize(1);
        return f.get(0);
    }

    static List<CheckRule> rules(List<Finding> findings) {
        return findings.stream().map(Finding::rule).toList();
    }

    private static final String NOTHING_ENFORCED = "  enforcing_consecutive_5xx: 0\n  enforcing_success_rate: 0\n";

    @Test
    void noDetectorEnforcedComesFirstAndAlone() {
        List<Finding> f = check(cluster(6, NOTHING_ENFORCED), null, 600L);
        // the cap (10 % of 6 admits none) would be an error too, but it does not matter: nothing is ejected
        assertThat(rules(f)).containsExactly(Rule.NO_DETECTOR_ENFORCED);
        Finding n = f.get(0);
        assertThat(n.severity()).isEqualTo(Severity.ERROR);
        assertThat(n.numbers())
                .containsEntry("enforcing_consecutive_5xx", 0L)
                .containsEntry("enforcing_consecutive_gateway_failure", 0L)
                .containsEntry("enforcing_success_rate", 0L)
                .containsEntry("enforcing_failure_percentage", 0L);
        assertThat(n.fix()).startsWith("outlier_detection:\n  enforcing_consecutive_5xx: 100");
        // a consecutive threshold of 0 is as dead as enforcement 0
        assertThat(rules(check(cluster(6, "  consecutive_5xx: 0\n  enforcing_success_rate: 0\n"), null, null)))
                .containsExactly(Rule.NO_DETECTOR_ENFORCED);
        // in split mode the local-origin detectors count (Envoy's defaults enforce consecutive local-origin 5)
        assertThat(rules(check(
                        cluster(6, NOTHING_ENFORCED + "  split_external_local_origin_errors: true\n"), null, null)))
                .doesNotContain(Rule.NO_DETECTOR_ENFORCED);
        assertThat(rules(check(cluster(6, "  max_ejection_percent: 34\n"), null, null)))
                .doesNotContain(Rule.NO_DETECTOR_ENFORCED);
    }

    @Test
    void successRateCanEjectNothingWhenTheFactorIsAtLeastSqrtOfHostsMinusOne() {
        // factor 2.5 among 6 hosts: sqrt(5) = 2.24 <= 2.5, so no host is ever below mean - 2.5 stdev
        Finding f = only(
                check(cluster(6, "  max_ejection_percent: 34\n  success_rate_stdev_factor: 2500\n"), null, null),
                Rule.SUCCESS_RATE_CANNOT_EJECT);
        assertThat(f.numbers())
                .containsEntry("factor", 2.5)
                .containsEntry("hosts", 6L)
                .containsEntry("sqrt_hosts_minus_1", 2.24)
                // N - 1 > 6.25 -> N >= 8
                .containsEntry("smallest_cluster_that_can_eject", 8L);
        assertThat(f.message())
                .contains("fewer than 8 hosts, whatever the failures")
                .contains("sqrt(5) = 2.2");
        assertThat(f.fix())
                .isEqualTo("outlier_detection:\n  success_rate_stdev_factor: 1900   # Envoy's default, "
                        + "a factor of 1.9 < sqrt(5)\n");
        // 8 hosts: sqrt(7) = 2.65 > 2.5: it can
        assertThat(rules(check(
                        cluster(8, "  max_ejection_percent: 34\n  success_rate_stdev_factor: 2500\n"), null, null)))
                .doesNotContain(Rule.SUCCESS_RATE_CANNOT_EJECT);
        // exactly sqrt(N - 1): factor 2 among 5 hosts is still never (Envoy's test is strict)
        assertThat(SuccessRateFactorCheck.smallestClusterThatCanEject(2000)).isEqualTo(6);
        assertThat(SuccessRateFactorCheck.smallestClusterThatCanEject(1900)).isEqualTo(5);
    }

    @Test
    void samuelsonBoundHoldsForRandomClusters() {
        // for any success rates, (mean - x) <= stdev * sqrt(N - 1): checked on seeded random clusters
        SeededRandom random = new SeededRandom(3);
        for (int trial = 0; trial < 2_000; trial++) {
            int n = 2 + (int) Long.remainderUnsigned(random.next(), 20);
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = Long.remainderUnsigned(random.next(), 10_001) / 100.0;
            }
            double mean = Arrays.stream(x).average().orElseThrow();
            double var = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum() / n;
            double min = Arrays.stream(x).min().orElseThrow();
            assertThat(mean - min).isLessThanOrEqualTo(Math.sqrt(var) * Math.sqrt(n - 1) + 1e-9);
        }
    }

    @Test
    void anAbsurdFactorIsNamedAsAUnitMistake() {
        // Kuma's standardDeviationFactor: 1900 becomes success_rate_stdev_factor 1900000, a factor of 1900
        Finding f = only(
                check(cluster(6, "  max_ejection_percent: 34\n  success_rate_stdev_factor: 1900000\n"), null, null),
                Rule.SUCCESS_RATE_CANNOT_EJECT);
        assertThat(f.numbers())
                .containsEntry("factor", 1900.0)
                .containsEntry("likely_meant_stdev_factor", 1900L)
                .containsEntry("smallest_cluster_that_can_eject", 3_610_002L);
        assertThat(f.message()).contains("fewer than 3,610,002 hosts").contains("Kuma's standardDeviationFactor 1900");
        assertThat(f.fix()).isEqualTo("outlier_detection:\n  success_rate_stdev_factor: 1900   # a factor of 1.9\n");
        // without a host count it is still said
        assertThat(rules(check(
                        cluster(6, "  max_ejection_percent: 34\n  success_rate_stdev_factor: 1900000\n")
                                .replace("type: STATIC", "type: EDS"),
                        null,
                        null)))
                .contains(Rule.SUCCESS_RATE_CANNOT_EJECT);
    }

    @Test
    void tooFewHostsFixDoesNotProposeAMinimumThatCannotEject() {
        // 3 hosts, factor 1.9: sqrt(2) = 1.41 < 1.9, so lowering success_rate_minimum_hosts to 3 would run and never
        // eject
        Finding f =
                only(check(cluster(3, "  max_ejection_percent: 34\n"), null, null), Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        assertThat(f.fix())
                .doesNotContain("success_rate_minimum_hosts:")
                .contains("so lowering success_rate_minimum_hosts to 3 is not enough")
                .contains("enforcing_failure_percentage: 100")
                .contains("failure_percentage_minimum_hosts: 3");
    }

    @Test
    void deadAndRedundantDetectors() {
        Finding zero = only(
                check(
                        cluster(
                                6,
                                "  max_ejection_percent: 34\n  consecutive_gateway_failure: 0\n"
                                        + "  enforcing_consecutive_gateway_failure: 100\n"),
                        null,
                        null),
                Rule.DETECTOR_THRESHOLD_ZERO);
        assertThat(zero.numbers())
                .containsEntry("consecutive_gateway_failure", 0L)
                .containsEntry("enforcing_consecutive_gateway_failure", 100L);
        assertThat(zero.fix()).isEqualTo("outlier_detection:\n  consecutive_gateway_failure: 5   # Envoy's default\n");
        Finding redundant = only(
                check(
                        cluster(
                                6,
                                "  max_ejection_percent: 34\n  consecutive_gateway_failure: 7\n"
                                        + "  enforcing_consecutive_gateway_failure: 100\n"),
                        null,
                        null),
                Rule.GATEWAY_REDUNDANT);
        assertThat(redundant.severity()).isEqualTo(Severity.NOTE);
        assertThat(redundant.numbers())
                .containsEntry("consecutive_gateway_failure", 7L)
                .containsEntry("consecutive_5xx", 5L);
        // below the 5xx threshold it does something: no finding
        assertThat(rules(check(
                        cluster(
                                6,
                                "  max_ejection_percent: 34\n  consecutive_gateway_failure: 3\n"
                                        + "  enforcing_consecutive_gateway_failure: 100\n"),
                        null,
                        null)))
                .doesNotContain(Rule.GATEWAY_REDUNDANT);
        // 5xx enforced at only 50 %: the gateway detector can eject what 5xx's draw spared
        assertThat(rules(check(
                        cluster(
                                6,
                                "  max_ejection_percent: 34\n  enforcing_consecutive_5xx: 50\n"
                                        + "  consecutive_gateway_failure: 7\n  enforcing_consecutive_gateway_failure: 100\n"),
                        null,
                        null)))
                .doesNotContain(Rule.GATEWAY_REDUNDANT);
    }

    @Test
    void intervalLongerThanTheEjectionTime() {
        Finding f = only(
                check(
                        cluster(6, "  max_ejection_percent: 34\n  interval: 30s\n  base_ejection_time: 10s\n"),
                        null,
                        null),
                Rule.INTERVAL_LONGER_THAN_EJECTION);
        assertThat(f.numbers())
                .containsEntry("interval_seconds", 30.0)
                .containsEntry("base_ejection_time_seconds", 10.0)
                .containsEntry("ejection_at_a_tick_lasts_seconds", 30.0)
                .containsEntry("ejection_between_ticks_lasts_up_to_seconds", 40.0);
        assertThat(f.fix()).isEqualTo("outlier_detection:\n  interval: 10s   # or base_ejection_time: 30s\n");
        assertThat(rules(check(
                        cluster(6, "  max_ejection_percent: 34\n  interval: 10s\n  base_ejection_time: 10s\n"),
                        null,
                        null)))
                .doesNotContain(Rule.INTERVAL_LONGER_THAN_EJECTION);
    }

    @Test
    void veryShortInterval() {
        Finding f = only(
                check(cluster(6, "  max_ejection_percent: 34\n  interval: 0.1s\n"), null, null),
                Rule.INTERVAL_VERY_SHORT);
        // 100 requests within 100 ms: 1000 requests per second to every host
        assertThat(f.numbers())
                .containsEntry("interval_seconds", 0.1)
                .containsEntry("success_rate_request_volume", 100L)
                .containsEntry("requests_per_second_per_host_needed", 1000L);
        assertThat(rules(check(cluster(6, "  max_ejection_percent: 34\n  interval: 1s\n"), null, null)))
                .doesNotContain(Rule.INTERVAL_VERY_SHORT);
    }

    @Test
    void hairTriggerWithAHighCap() {
        Finding f = only(
                check(cluster(6, "  consecutive_5xx: 2\n  max_ejection_percent: 50\n"), null, 600L), Rule.HAIR_TRIGGER);
        // at 1 % random failures, 2 in a row after (1 - 0.0001) / (0.99 * 0.0001) = 10,100 requests; 100 rps per host
        assertThat(f.numbers())
                .containsEntry("consecutive_5xx", 2L)
                .containsEntry("hosts_the_cap_lets_go", 3L)
                .containsEntry("expected_requests_to_a_run", 10_100L)
                .containsEntry("seconds_at_rps_per_host", 101.0);
        assertThat(f.message())
                .contains(
                        "has 2 in a row every 10,100 requests on average (101 s at 100 requests per second to each host)")
                .contains("lets 3 of 6 hosts go at once");
        assertThat(f.fix()).isEqualTo("outlier_detection:\n  consecutive_5xx: 5   # Envoy's default\n");
        // the same threshold with a cap that lets one host go is a choice, not a hair trigger
        assertThat(rules(check(cluster(6, "  consecutive_5xx: 2\n  max_ejection_percent: 17\n"), null, null)))
                .doesNotContain(Rule.HAIR_TRIGGER);
    }

    @Test
    void oneHostIsANoteWithoutAFix() {
        Finding f = only(check(cluster(1, ""), null, null), Rule.SINGLE_HOST);
        assertThat(f.severity()).isEqualTo(Severity.NOTE);
        assertThat(f.fix()).isNull();
        assertThat(rules(check(cluster(1, ""), null, null))).doesNotContain(Rule.CAP_ADMITS_NO_HOST);
    }

    @Test
    void defaultsAControlPlaneAlwaysSendsAreSilent() {
        // Envoy Gateway always sends consecutive_local_origin_failure 5 (its CRD default), without split mode
        assertThat(rules(check(
                        cluster(6, "  max_ejection_percent: 34\n  consecutive_local_origin_failure: 5\n"), null, null)))
                .doesNotContain(Rule.LOCAL_ORIGIN_IGNORED);
        assertThat(rules(check(
                        cluster(6, "  max_ejection_percent: 34\n  consecutive_local_origin_failure: 3\n"), null, null)))
                .contains(Rule.LOCAL_ORIGIN_IGNORED);
    }

    @Test
    void strictDnsNamesDoNotCountHosts() {
        String dns = cluster(2, "  max_ejection_percent: 34\n")
                .replace("type: STATIC", "type: STRICT_DNS")
                .replace("address: 10.0.0.1,", "address: search-a.example,")
                .replace("address: 10.0.0.2,", "address: search-b.example,");
        List<Finding> f = check(dns, null, null);
        assertThat(rules(f)).doesNotContain(Rule.SUCCESS_RATE_TOO_FEW_HOSTS, Rule.CAP_ADMITS_NO_HOST);
        assertThat(f).anySatisfy(x -> assertThat(x.message()).contains("STRICT_DNS: each of the 2 name(s)"));
        assertThat(CheckTargets.isAddressLiteral("10.0.0.1:80")).isTrue();
        assertThat(CheckTargets.isAddressLiteral("[::1]:80")).isTrue();
        assertThat(CheckTargets.isAddressLiteral("search.example:80")).isFalse();
    }
}
