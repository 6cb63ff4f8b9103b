package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.envoy.Corpus;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigCheckerTest {

    /** A static cluster with {@code hosts} endpoints and this outlier_detection body (indented two spaces). */
    private static String cluster(int hosts, String outlier, String extra) {
        StringBuilder sb = new StringBuilder("name: search\ntype: STATIC\nconnect_timeout: 1s\n" + extra
                + "load_assignment:\n  cluster_name: search\n  endpoints:\n  - lb_endpoints:\n");
        for (int i = 0; i < hosts; i++) {
            sb.append("    - endpoint: {address: {socket_address: {address: 10.0.0.")
                    .append(i + 1)
                    .append(", port_value: 80}}}\n");
        }
        sb.append("outlier_detection:").append(outlier.isEmpty() ? " {}\n" : "\n" + outlier);
        return sb.toString();
    }

    private static List<Finding> check(String text, Integer hosts, Long rps) {
        return CheckReport.of("c.yaml", CheckTargets.read(text, "c.yaml", null), hosts, rps)
                .findings();
    }

    private static List<CheckRule> rules(String text, Integer hosts, Long rps) {
        return check(text, hosts, rps).stream().map(Finding::rule).toList();
    }

    private static Finding only(List<Finding> findings, Rule rule) {
        List<Finding> f = findings.stream().filter(x -> x.rule() == rule).toList();
        assertThat(f).hasSize(1);
        return f.get(0);
    }

    @Test
    void capAdmitsNoHostWithTheSmallestPercentsForOneAndTwoHosts() {
        Finding f = only(check(cluster(6, "  consecutive_5xx: 3\n", ""), null, null), Rule.CAP_ADMITS_NO_HOST);
        assertThat(f.severity()).isEqualTo(Severity.WARNING);
        assertThat(f.line()).isEqualTo(14);
        assertThat(f.numbers())
                .containsEntry("hosts", 6L)
                .containsEntry("max_ejection_percent", 10L)
                .containsEntry("percent_if_one_ejected", 16.67)
                .containsEntry("smallest_percent_admitting_one_host", 17L)
                .containsEntry("smallest_percent_admitting_two_hosts", 34L);
        assertThat(f.fix())
                .isEqualTo("outlier_detection:\n  max_ejection_percent: 17   # admits 1 of 6 hosts; 34 admits 2\n");
        assertThat(f.message()).contains("admits no host of 6");
    }

    @Test
    void capNotTriggeredWhenItAdmitsAHostOrAlwaysEjectOneHost() {
        assertThat(rules(cluster(10, "", ""), null, null)).doesNotContain(Rule.CAP_ADMITS_NO_HOST);
        assertThat(rules(cluster(6, "  max_ejection_percent: 34\n", ""), null, null))
                .doesNotContain(Rule.CAP_ADMITS_NO_HOST);
        assertThat(rules(cluster(6, "  always_eject_one_host: true\n", ""), null, null))
                .doesNotContain(Rule.CAP_ADMITS_NO_HOST);
        // --hosts overrides the file's count
        assertThat(rules(cluster(6, "", ""), 12, null)).doesNotContain(Rule.CAP_ADMITS_NO_HOST);
    }

    @Test
    void capWithUnknownSizeSaysTheSmallestCluster() {
        Finding f = only(check(Corpus.text("envoy/cds-response.yaml"), null, null), Rule.CAP_ADMITS_NO_HOST_BELOW);
        assertThat(f.target()).isEqualTo("ratings");
        assertThat(f.numbers()).containsEntry("smallest_cluster_admitting_one_host", 10L);
        assertThat(f.severity()).isEqualTo(Severity.NOTE);
        assertThat(rules(cluster(6, "  max_ejection_percent: 0\n", ""), null, null))
                .contains(Rule.CAP_ADMITS_NO_HOST);
    }

    @Test
    void successRateTooFewHosts() {
        Finding f = only(
                check(cluster(4, "  max_ejection_percent: 25\n", ""), null, null), Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        assertThat(f.numbers()).containsEntry("hosts", 4L).containsEntry("success_rate_minimum_hosts", 5L);
        assertThat(rules(cluster(5, "  max_ejection_percent: 20\n", ""), null, null))
                .doesNotContain(Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        assertThat(rules(cluster(4, "  max_ejection_percent: 25\n  enforcing_success_rate: 0\n", ""), null, null))
                .doesNotContain(Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
    }

    @Test
    void successRateVolumeUnreachable() {
        // 50 rps over 6 hosts and 10 s: 83 requests per host per interval < 100
        Finding f = only(
                check(cluster(6, "  max_ejection_percent: 34\n", ""), null, 50L), Rule.SUCCESS_RATE_VOLUME_UNREACHABLE);
        assertThat(f.numbers())
                .containsEntry("requests_per_host_per_interval", 83L)
                .containsEntry("success_rate_request_volume", 100L)
                .containsEntry("rps_needed", 60L)
                .containsEntry("interval_needed_seconds", 12.0);
        assertThat(f.fix()).isEqualTo("outlier_detection:\n  interval: 12s   # or success_rate_request_volume: 83\n");
        assertThat(rules(cluster(6, "  max_ejection_percent: 34\n", ""), null, 60L))
                .doesNotContain(Rule.SUCCESS_RATE_VOLUME_UNREACHABLE);
        assertThat(rules(cluster(6, "  max_ejection_percent: 34\n", ""), null, null))
                .doesNotContain(Rule.SUCCESS_RATE_VOLUME_UNREACHABLE);
    }

    @Test
    void failurePercentageChecksWhenEnforced() {
        String od =
                "  max_ejection_percent: 50\n  enforcing_failure_percentage: 100\n  failure_percentage_minimum_hosts: 3\n";
        assertThat(rules(cluster(2, od, ""), null, null)).contains(Rule.FAILURE_PERCENTAGE_TOO_FEW_HOSTS);
        assertThat(rules(cluster(4, od, ""), null, 10L)).contains(Rule.FAILURE_PERCENTAGE_VOLUME_UNREACHABLE);
        assertThat(rules(cluster(4, od, ""), null, 1000L))
                .doesNotContain(
                        Rule.FAILURE_PERCENTAGE_VOLUME_UNREACHABLE,
                        Rule.FAILURE_PERCENTAGE_TOO_FEW_HOSTS,
                        Rule.FAILURE_PERCENTAGE_DETECT_ONLY);
    }

    @Test
    void detectOnlyDetectors() {
        Finding gw =
                only(check(Corpus.text("envoy/health-checked-cluster.yaml"), null, null), Rule.GATEWAY_DETECT_ONLY);
        assertThat(gw.numbers()).containsEntry("consecutive_gateway_failure", 3L);
        assertThat(gw.fix()).isEqualTo("outlier_detection:\n  enforcing_consecutive_gateway_failure: 100\n");
        assertThat(rules(
                        cluster(
                                6,
                                "  consecutive_gateway_failure: 3\n  enforcing_consecutive_gateway_failure: 100\n",
                                ""),
                        null,
                        null))
                .doesNotContain(Rule.GATEWAY_DETECT_ONLY);
        assertThat(rules(cluster(6, "", ""), null, null))
                .doesNotContain(Rule.GATEWAY_DETECT_ONLY, Rule.FAILURE_PERCENTAGE_DETECT_ONLY);
        List<CheckRule> fp = rules(Corpus.text("envoy/cds-response.yaml"), null, null);
        assertThat(fp).contains(Rule.FAILURE_PERCENTAGE_DETECT_ONLY, Rule.GATEWAY_DETECT_ONLY);
    }

    @Test
    void localOriginWithoutSplit() {
        assertThat(rules(cluster(6, "  consecutive_local_origin_failure: 3\n", ""), null, null))
                .contains(Rule.LOCAL_ORIGIN_IGNORED);
        assertThat(rules(
                        cluster(
                                6,
                                "  consecutive_local_origin_failure: 3\n  split_external_local_origin_errors: true\n",
                                ""),
                        null,
                        null))
                .doesNotContain(Rule.LOCAL_ORIGIN_IGNORED);
    }

    @Test
    void healthChecksReturnEjectedHosts() {
        Finding f = only(
                check(Corpus.text("envoy/health-checked-cluster.yaml"), null, null), Rule.HEALTH_CHECK_RETURNS_EJECTED);
        assertThat(f.numbers())
                .containsEntry("health_check_interval_seconds", 5.0)
                .containsEntry("base_ejection_time_seconds", 30.0);
        assertThat(f.fix()).startsWith("outlier_detection:\n  successful_active_health_check_uneject_host: false");
        String hc = "health_checks:\n- {timeout: 1s, interval: 5s, unhealthy_threshold: 3, healthy_threshold: 2, "
                + "http_health_check: {path: /healthz}}\n";
        assertThat(rules(
                        cluster(
                                6,
                                "  max_ejection_percent: 34\n  successful_active_health_check_uneject_host: false\n",
                                hc),
                        null,
                        null))
                .doesNotContain(Rule.HEALTH_CHECK_RETURNS_EJECTED);
        assertThat(rules(cluster(6, "  max_ejection_percent: 34\n", hc), null, null))
                .contains(Rule.HEALTH_CHECK_RETURNS_EJECTED);
    }

    @Test
    void capAbovePanicHeadroomTriggersPanic() {
        // 4 hosts, cap 50 %: two may go, leaving 50 % healthy, not below 50: no panic
        assertThat(rules(Corpus.text("envoy/health-checked-cluster.yaml"), null, null))
                .doesNotContain(Rule.CAP_ALLOWS_PANIC);
        // 5 hosts, cap 70 %, panic 45: three may go, and after three only 40 % are healthy
        Finding f = only(check(Corpus.text("envoy/cds-response.yaml"), null, null), Rule.CAP_ALLOWS_PANIC);
        assertThat(f.target()).isEqualTo("reviews");
        assertThat(f.numbers())
                .containsEntry("hosts", 5L)
                .containsEntry("hosts_the_cap_lets_go", 3L)
                .containsEntry("ejections_that_trigger_panic", 3L)
                .containsEntry("healthy_percent_then", 40.0)
                .doesNotContainKey("x");
        assertThat(f.fix())
                .isEqualTo("outlier_detection:\n  max_ejection_percent: 40   # lets 2 of 5 hosts go, without panic\n");
        // 6 hosts and a 60 % cap leave 50 % healthy, not below 50; 70 % lets a fourth go
        assertThat(rules(cluster(6, "  max_ejection_percent: 60\n", ""), null, null))
                .doesNotContain(Rule.CAP_ALLOWS_PANIC);
        Finding six = only(check(cluster(6, "  max_ejection_percent: 70\n", ""), null, null), Rule.CAP_ALLOWS_PANIC);
        assertThat(six.numbers()).containsEntry("hosts", 6L).containsEntry("ejections_that_trigger_panic", 4L);
        String eds = Corpus.text("envoy/eds-cluster.yaml")
                .replace("healthy_panic_threshold: {}", "healthy_panic_threshold: {value: 50}");
        Finding pct = only(check(eds, null, null), Rule.CAP_ALLOWS_PANIC);
        assertThat(pct.numbers())
                .containsEntry("max_ejection_percent", 100L)
                .containsEntry("healthy_panic_threshold", 50.0);
        assertThat(pct.fix()).isEqualTo("outlier_detection:\n  max_ejection_percent: 50\n");
    }

    @Test
    void aPanicThresholdAbove71PercentActsAs71AsInEnvoysLoadBalancer() {
        // Envoy's recalculatePerPriorityPanic: availability min(100, 140 * healthy / hosts); never panic at 100.
        String panic90 = "common_lb_config: {healthy_panic_threshold: {value: 90}}\n";
        // 6 hosts, cap 20: one may go; 5 of 6 healthy is 140 * 5 / 6 = 116 -> 100: no panic although 83 % < 90
        assertThat(rules(cluster(6, "  max_ejection_percent: 20\n", panic90), null, null))
                .doesNotContain(Rule.CAP_ALLOWS_PANIC);
        // cap 34: two may go; 4 of 6 is 140 * 4 / 6 = 93 < 100 and 66.7 % < 90: panic after the second
        Finding two =
                only(check(cluster(6, "  max_ejection_percent: 34\n", panic90), null, null), Rule.CAP_ALLOWS_PANIC);
        assertThat(two.numbers())
                .containsEntry("hosts_the_cap_lets_go", 2L)
                .containsEntry("ejections_that_trigger_panic", 2L)
                .containsEntry("healthy_percent_then", 66.67);
        assertThat(two.fix())
                .isEqualTo("outlier_detection:\n  max_ejection_percent: 17   # lets 1 of 6 hosts go, without panic\n");
        // without a host count the threshold acts as 100 / 1.4 = 71.43 %: a cap of 28 leaves 72 % (100.8 % available)
        String eds = Corpus.text("envoy/eds-cluster.yaml")
                .replace("healthy_panic_threshold: {}", "healthy_panic_threshold: {value: 90}");
        assertThat(rules(eds.replace("max_ejection_percent: 100", "max_ejection_percent: 28"), null, null))
                .doesNotContain(Rule.CAP_ALLOWS_PANIC);
        Finding hostless = only(
                check(eds.replace("max_ejection_percent: 100", "max_ejection_percent: 29"), null, null),
                Rule.CAP_ALLOWS_PANIC);
        assertThat(hostless.numbers()).containsEntry("effective_panic_threshold", 71.43);
        assertThat(hostless.fix()).isEqualTo("outlier_detection:\n  max_ejection_percent: 28\n");
        assertThat(hostless.message()).contains("acts as 71.4");
    }

    @Test
    void panicDisabledWithACapThatAdmitsEveryHost() {
        Finding f = only(check(Corpus.text("envoy/eds-cluster.yaml"), null, null), Rule.PANIC_DISABLED_EJECT_ALL);
        assertThat(f.numbers())
                .containsEntry("max_ejection_percent", 100L)
                .containsEntry("healthy_panic_threshold", 0.0);
        Finding sized = only(check(Corpus.text("envoy/eds-cluster.yaml"), 4, null), Rule.PANIC_DISABLED_EJECT_ALL);
        assertThat(sized.fix())
                .startsWith("outlier_detection:\n  max_ejection_percent: 74   # leaves at least half the hosts");
        String panicOn =
                Corpus.text("envoy/eds-cluster.yaml").replace("max_ejection_percent: 100", "max_ejection_percent: 50");
        assertThat(rules(panicOn, 4, null)).doesNotContain(Rule.PANIC_DISABLED_EJECT_ALL);
    }

    @Test
    void consecutive5xxBlindSpot() {
        // success rate off, failure percentage off: nothing else can eject a partially failing host
        Finding f = only(check(Corpus.text("envoy/eds-cluster.yaml"), null, null), Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        // a note: random failures are caught (the numbers say how fast), evenly spread ones are not
        assertThat(f.severity()).isEqualTo(Severity.NOTE);
        assertThat(f.numbers())
                .containsEntry("consecutive_5xx", 3L)
                .containsEntry("largest_evenly_spread_error_rate_never_caught_percent", 66.67)
                .containsEntry("random_error_rate_percent", 33.0)
                // (1 - 0.33^3) / (0.67 * 0.33^3) = 0.964063 / 0.02407779 = 40.04
                .containsEntry("random_expected_requests_to_a_run", 40.04)
                .containsEntry("other_detector_can_eject", false);
        assertThat(f.message())
                .contains("never make that at an error rate of 66.7 % or less")
                .contains("at 33 % a host fails 3 in a row after 40 requests on average")
                .doesNotContain("cannot");
        assertThat(f.fix()).contains("enforcing_failure_percentage: 100");
        // with success rate able to run it is only a note
        Finding note = only(
                check(cluster(6, "  max_ejection_percent: 34\n", ""), null, 600L), Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        assertThat(note.severity()).isEqualTo(Severity.NOTE);
        assertThat(rules(cluster(6, "  consecutive_5xx: 1\n", ""), null, null))
                .doesNotContain(Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        assertThat(rules(cluster(6, "  enforcing_consecutive_5xx: 0\n", ""), null, null))
                .doesNotContain(Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        // an enforced gateway detector with a lower threshold narrows the blind spot
        Finding gw = only(
                check(
                        cluster(
                                6,
                                "  enforcing_success_rate: 0\n  consecutive_gateway_failure: 2\n"
                                        + "  enforcing_consecutive_gateway_failure: 100\n",
                                ""),
                        null,
                        null),
                Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        assertThat(gw.numbers()).containsEntry("largest_evenly_spread_error_rate_never_caught_percent", 50.0);
        assertThat(gw.message()).startsWith("consecutive_gateway_failure 2 needs 2 failures in a row");
        // with --rps and a host count: seconds at each host's share of the traffic
        Finding timed = only(
                check(cluster(6, "  max_ejection_percent: 34\n", ""), null, 600L), Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        // consecutive_5xx 5 at 33 %: (1 - 0.33^5) / (0.67 * 0.33^5) = 379.89 requests; 100 rps per host -> 3.8 s
        assertThat(timed.numbers())
                .containsEntry("random_expected_requests_to_a_run", 379.89)
                .containsEntry("requests_per_second_per_host", 100.0)
                .containsEntry("random_expected_seconds_to_a_run", 3.8);
        assertThat(timed.message())
                .contains("after 380 requests on average, 3.8 s at 100 requests per second to the host");
    }

    @Test
    void theBlindSpotFollowsTheLabsFaultRule() {
        for (long n = 2; n <= 7; n++) {
            double blind = PartialFailureCheck.largestRateNeverCaught(n);
            long atPpm = Math.round(blind * 10_000);
            long ppm = (n - 1) * 1_000_000 / n; // exactly (n-1)/n, rounded down to a whole ppm
            assertThat(FaultSpec.longestFailureRun(ppm))
                    .as("run at %s ppm", ppm)
                    .isLessThan(n);
            assertThat(FaultSpec.longestFailureRun(Math.max(ppm, atPpm) + 100))
                    .as("just above")
                    .isGreaterThanOrEqualTo(n);
        }
    }

    @Test
    void invalidConfigurationIsAnErrorAtTheFieldsLine() {
        List<Finding> f = check(Corpus.text("envoy/bad/rejected-values.yaml"), null, null);
        assertThat(f).extracting(Finding::rule).containsExactly(Rule.INVALID_CONFIG, Rule.INVALID_CONFIG);
        assertThat(f.get(0).line()).isEqualTo(12);
        assertThat(f.get(0).message()).contains("max_ejection_percent: 120 is not allowed");
        assertThat(f.get(1).line()).isEqualTo(14);
        assertThat(f.get(1).message()).contains("max_ejection_time: 30s is not allowed");
    }

    @Test
    void noOutlierDetectionIsANote() {
        Finding f = only(check(Corpus.text("envoy/bootstrap.yaml"), null, null), Rule.NO_OUTLIER_DETECTION);
        assertThat(f.target()).isEqualTo("metrics_sink");
        assertThat(f.severity()).isEqualTo(Severity.NOTE);
    }

    @Test
    void theSeedsTunedClusterIsClean() {
        List<Finding> f = check(Corpus.text("envoy/static-cluster.yaml"), null, 600L);
        assertThat(f).extracting(Finding::severity).containsOnly(Severity.NOTE);
        assertThat(CheckReport.of(
                                "x", CheckTargets.read(Corpus.text("envoy/static-cluster.yaml"), "x", null), null, 600L)
                        .exitCode(Severity.WARNING))
                .isZero();
    }

    @Test
    void istioFindingsUseIstioFieldNamesInFixes() {
        List<Finding> f = check(Corpus.text("istio/surprises.yaml"), 6, null);
        assertThat(f).extracting(Finding::rule).contains(Rule.ISTIO_TRANSLATION, Rule.CAP_ADMITS_NO_HOST);
        Finding cap = only(f, Rule.CAP_ADMITS_NO_HOST);
        assertThat(cap.fix())
                .isEqualTo(
                        "trafficPolicy:\n  outlierDetection:\n    maxEjectionPercent: 17   # admits 1 of 6 hosts; 34 admits 2\n");
        assertThat(cap.line()).isEqualTo(9);
        Finding partial =
                only(check(Corpus.text("istio/reviews-basic.yaml"), 6, 600L), Rule.CONSECUTIVE_5XX_MISSES_PARTIAL);
        assertThat(partial.severity()).isEqualTo(Severity.NOTE);
        assertThat(partial.fix())
                .isEqualTo(
                        "# a DestinationRule cannot set enforcing_failure_percentage: 100, "
                                + "failure_percentage_threshold: 20, failure_percentage_minimum_hosts: 5; an EnvoyFilter patch can\n");
        Finding panicOff = only(
                check(Corpus.text("istio/multi-port-subsets.yaml"), 6, null).stream()
                        .filter(x -> x.target().equals("search"))
                        .toList(),
                Rule.PANIC_DISABLED_EJECT_ALL);
        assertThat(panicOff.fix()).contains("maxEjectionPercent: 66   # leaves at least half the hosts");
    }

    @Test
    void capSeverityFollowsWhatTheFileChose() {
        // Envoy's defaults alone (an empty block): the default cap 10 on 6 hosts is a note
        Finding defaults = only(check(cluster(6, "", ""), null, null), Rule.CAP_ADMITS_NO_HOST);
        assertThat(defaults.severity()).isEqualTo(Severity.NOTE);
        assertThat(defaults.message()).contains("the file configures no detector");
        // a detector configured (even at its default value 5) with the default cap: a warning
        Finding configured = only(check(cluster(6, "  consecutive_5xx: 5\n", ""), null, null), Rule.CAP_ADMITS_NO_HOST);
        assertThat(configured.severity()).isEqualTo(Severity.WARNING);
        assertThat(configured.message()).contains("Envoy's default cap");
        // the cap written as 10, Envoy's default: still the default cap, a warning and not an error
        assertThat(only(
                                check(cluster(6, "  consecutive_5xx: 3\n  max_ejection_percent: 10\n", ""), null, null),
                                Rule.CAP_ADMITS_NO_HOST)
                        .severity())
                .isEqualTo(Severity.WARNING);
        // a cap someone chose, 15, admits no host of 6 (one would be 16.7 %): an error
        Finding chosen =
                only(check(cluster(6, "  max_ejection_percent: 15\n", ""), null, null), Rule.CAP_ADMITS_NO_HOST);
        assertThat(chosen.severity()).isEqualTo(Severity.ERROR);
        assertThat(chosen.numbers())
                .containsEntry("max_ejection_percent", 15L)
                .containsEntry("percent_if_one_ejected", 16.67);
        // --hosts makes the cluster known-small: 9 hosts, 11.1 % per host, the default cap: a warning
        assertThat(only(check(cluster(20, "  consecutive_5xx: 3\n", ""), 9, null), Rule.CAP_ADMITS_NO_HOST)
                        .severity())
                .isEqualTo(Severity.WARNING);
    }

    @Test
    void successRateByDefaultIsANoteWhenItCannotRunAndAWarningWhenConfigured() {
        // 3 hosts, success_rate_minimum_hosts 5 by default; enforcing_success_rate is 100 by default
        Finding byDefault = only(
                check(cluster(3, "  max_ejection_percent: 34\n", ""), null, null), Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        assertThat(byDefault.severity()).isEqualTo(Severity.NOTE);
        assertThat(byDefault.numbers()).containsEntry("hosts", 3L).containsEntry("success_rate_minimum_hosts", 5L);
        Finding configured = only(
                check(cluster(3, "  max_ejection_percent: 34\n  success_rate_request_volume: 100\n", ""), null, null),
                Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        assertThat(configured.severity()).isEqualTo(Severity.WARNING);
        // volume: 6 hosts at 30 rps over a 10 s interval get 50 requests each, below the default volume 100
        Finding volume = only(
                check(cluster(6, "  max_ejection_percent: 17\n  success_rate_minimum_hosts: 3\n", ""), null, 30L),
                Rule.SUCCESS_RATE_VOLUME_UNREACHABLE);
        assertThat(volume.severity()).isEqualTo(Severity.WARNING);
        assertThat(volume.numbers()).containsEntry("requests_per_host_per_interval", 50L);
        assertThat(only(
                                check(cluster(6, "  max_ejection_percent: 17\n", ""), null, 30L),
                                Rule.SUCCESS_RATE_VOLUME_UNREACHABLE)
                        .severity())
                .isEqualTo(Severity.NOTE);
    }

    @Test
    void aValueEqualToTheDefaultIsNeverAFindingForBeingSet() {
        // consecutive_gateway_failure 5 and consecutive_local_origin_failure 5 are Envoy's defaults: no detect-only
        // or ignored-setting warning, whoever wrote them (Envoy Gateway always sends the second)
        List<CheckRule> equalToDefault = rules(
                cluster(
                        10,
                        "  consecutive_gateway_failure: 5\n"
                                + "  consecutive_local_origin_failure: 5\n  failure_percentage_threshold: 85\n",
                        ""),
                null,
                null);
        assertThat(equalToDefault)
                .doesNotContain(
                        Rule.GATEWAY_DETECT_ONLY, Rule.LOCAL_ORIGIN_IGNORED, Rule.FAILURE_PERCENTAGE_DETECT_ONLY);
        List<CheckRule> chosen = rules(
                cluster(
                        10,
                        "  consecutive_gateway_failure: 3\n"
                                + "  consecutive_local_origin_failure: 3\n  failure_percentage_threshold: 50\n",
                        ""),
                null,
                null);
        assertThat(chosen)
                .contains(Rule.GATEWAY_DETECT_ONLY, Rule.LOCAL_ORIGIN_IGNORED, Rule.FAILURE_PERCENTAGE_DETECT_ONLY);
    }

    @Test
    void exitCodes() {
        CheckReport r = CheckReport.of(
                "c.yaml",
                CheckTargets.read(cluster(6, "  max_ejection_percent: 15\n", ""), "c.yaml", null),
                null,
                null);
        assertThat(r.exitCode(Severity.ERROR)).isEqualTo(1);
        CheckReport warningsOnly = CheckReport.of(
                "c.yaml",
                CheckTargets.read(Corpus.text("envoy/health-checked-cluster.yaml"), "c.yaml", null),
                null,
                null);
        assertThat(warningsOnly.count(Severity.ERROR)).isZero();
        assertThat(warningsOnly.exitCode(Severity.ERROR)).isZero();
        assertThat(warningsOnly.exitCode(Severity.WARNING)).isEqualTo(1);
    }

    @Test
    void partsNotModelledAreNotes() {
        String weighted = cluster(6, "  max_ejection_percent: 34\n", "")
                .replace(
                        "    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}",
                        "    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}\n"
                                + "      load_balancing_weight: 3");
        Finding f = only(check(weighted, null, null), Rule.NOT_MODELLED);
        assertThat(f.message()).contains("load_balancing_weight is not modelled");
        assertThat(rules(cluster(6, "  max_ejection_percent: 34\n", ""), null, null))
                .doesNotContain(Rule.NOT_MODELLED);
    }
}
