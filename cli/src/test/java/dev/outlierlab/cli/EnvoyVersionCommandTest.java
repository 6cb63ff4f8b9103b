package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where Envoy releases differ, end to end: {@code envoy_version} and {@code --envoy-version} on run and check. */
class EnvoyVersionCommandTest {
    @TempDir
    Path dir;

    @Test
    void theSixHostDefaultClusterEjectsHostZeroBeforeTheCapChangeAndNotUnderOnePointForty() {
        CliRunner.Outcome now = CliRunner.run("run", "--format", "json");
        assertThat(now.events("eject")).isEmpty();
        assertThat(now.json().get("scenario").get("envoy_version").asText()).isEqualTo("1.40");
        CliRunner.Outcome before = CliRunner.run("run", "--envoy-version", "1.27", "--format", "json");
        // before 1.28 the multiplier also dropped at every tick for a host not ejected (pull 29711): back at 70 s,
        // down to 0 at 80 s, so every ejection lasts 30 s and host-0 goes again at every fourth tick
        assertThat(before.events("eject"))
                .containsExactly(
                        "40000000000 host-0 SUCCESS_RATE",
                        "80000000000 host-0 SUCCESS_RATE",
                        "120000000000 host-0 SUCCESS_RATE",
                        "160000000000 host-0 SUCCESS_RATE",
                        "200000000000 host-0 SUCCESS_RATE",
                        "240000000000 host-0 SUCCESS_RATE");
        assertThat(before.json().get("events").get(0).get("explanation").asText())
                .contains(
                        "cap (0+1)/6 = 16.7 % > 10 %, admitted as the first ejection (Envoy before 1.28 always allowed it)");
        // the same from the scenario file's key; and the first release with the new rule ejects nothing
        CliRunner.Outcome fromKey = CliRunner.run("run", "--set", "envoy_version=1.26.4", "--format", "json");
        assertThat(fromKey.events("eject")).hasSize(6);
        assertThat(CliRunner.run("run", "--envoy-version", "1.28", "--format", "json")
                        .events("eject"))
                .isEmpty();
        assertThat(CliRunner.run("run", "--envoy-version", "1.27").out())
                .startsWith("outlier-lab run: bookstore-search (300 s, seed 1, Envoy 1.27's rules)");
    }

    @Test
    void aFieldTheChosenReleaseDoesNotHaveIsRefusedNotHonoured() {
        // always_eject_one_host arrived in 1.31, successful_active_health_check_uneject_host in 1.28 (a runtime flag
        // before): an Envoy of an older release rejects the unknown field, so the lab does too
        CliRunner.run("run", "--envoy-version", "1.30", "--set", "outlier_detection.always_eject_one_host=true")
                .assertRejected(
                        "outlier_detection.always_eject_one_host",
                        "Envoy 1.30 has no such field",
                        "it arrived in 1.31");
        CliRunner.run(
                        "run",
                        "--envoy-version",
                        "1.27",
                        "--set",
                        "outlier_detection.successful_active_health_check_uneject_host=false")
                .assertRejected("outlier_detection.successful_active_health_check_uneject_host", "Envoy 1.27", "1.28");
        assertThat(CliRunner.run(
                                "run",
                                "--envoy-version",
                                "1.31",
                                "--set",
                                "outlier_detection.always_eject_one_host=true",
                                "--format",
                                "json")
                        .events("eject"))
                .hasSize(3);
        // left at its default the field is simply absent, so older releases run as before
        assertThat(CliRunner.run("run", "--envoy-version", "1.27", "--format", "json")
                        .exit())
                .isZero();
    }

    @Test
    void detectDegradedHostsOfOnePointThirtyEightIsReadAndItsCounterShown() throws IOException {
        // changelogs 1.38.0: detect_degraded_hosts (OutlierDetection) and the ejections_detected_degradation counter.
        // The bundled Envoy API (1.0.49) has no such field; the reader takes it by name
        Path f = dir.resolve("degraded.yaml");
        Files.writeString(f, """
                name: search
                connect_timeout: 1s
                type: STATIC
                load_assignment:
                  cluster_name: search
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                outlier_detection:
                  detect_degraded_hosts: true
                """);
        CliRunner.Outcome r = CliRunner.run("run", "--envoy", f.toString(), "--format", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.json()
                        .get("scenario")
                        .get("outlier_detection")
                        .get("detect_degraded_hosts")
                        .asBoolean())
                .isTrue();
        assertThat(r.json().get("stats").get("ejections_detected_degradation").asLong())
                .isZero();
        assertThat(CliRunner.run("run", "--envoy", f.toString(), "--stats", "text")
                        .out())
                .contains("cluster.search.outlier_detection.ejections_detected_degradation: 0\n");
        CliRunner.run("run", "--envoy", f.toString(), "--envoy-version", "1.37")
                .assertRejected("outlier_detection.detect_degraded_hosts", "Envoy 1.37 has no such field", "1.38");
        // the counter exists from 1.38 only; left out, the field is not written into the scenario
        CliRunner.Outcome old = CliRunner.run("run", "--envoy-version", "1.37", "--format", "json");
        assertThat(old.json().get("stats").has("ejections_detected_degradation"))
                .isFalse();
        assertThat(old.json().get("scenario").get("outlier_detection").has("detect_degraded_hosts"))
                .isFalse();
        assertThat(CliRunner.run("check", f.toString()).out()).contains("detect_degraded_hosts (Envoy 1.38) is read");
        assertThat(CliRunner.run("run", "--set", "outlier_detection.detect_degraded_hosts=true", "--format", "json")
                        .json()
                        .get("summary")
                        .get("ejections_detected")
                        .asLong())
                .isEqualTo(21);
    }

    @Test
    void beforeOnePointThirtyOneAFailingHealthCheckReturnsAnEjectedHost() throws IOException {
        // host-0 fails every request from 30 s and times out its health checks (3 to fail it): consecutive 5xx
        // ejects it at 30.04 s; the probe at 35 s fails, but the host is not failed yet
        Path f = dir.resolve("hc.yaml");
        Files.writeString(f, """
                duration: 60s
                faults:
                  - hosts: 1
                    start: 30s
                    error_rate: 100
                    fails_health_check: timeout
                outlier_detection:
                  max_ejection_percent: 34
                  enforcing_success_rate: 0
                health_checks:
                  interval: 5s
                  no_traffic_interval: 5s
                  unhealthy_threshold: 3
                """);
        CliRunner.Outcome old = CliRunner.run("run", f.toString(), "--envoy-version", "1.30", "--format", "json");
        // the probe at 30 s times out at 31 s (timeout 1 s): a failure below the threshold, which 1.30 still lets
        // return the host ejected at 30.04 s
        assertThat(old.events("uneject")).startsWith("31000000000 host-0");
        // events: the gateway detection (not enforced) and the ejection at 30.04 s, then the return at 31 s
        assertThat(old.json().get("events").get(2).get("explanation").asText())
                .contains("returned by a failing active health check", "Envoy before 1.31");
        CliRunner.Outcome fixed = CliRunner.run("run", f.toString(), "--envoy-version", "1.31", "--format", "json");
        assertThat(fixed.events("uneject")).isEmpty();
    }

    @Test
    void checkSaysWhichReleaseItAssumes() {
        String search = "../docs/examples/search-cluster.yaml";
        CliRunner.Outcome now = CliRunner.run("check", search, "--rps", "600");
        assertThat(now.out()).contains("cap-admits-no-host", "(assumes Envoy 1.40)");
        CliRunner.Outcome before = CliRunner.run("check", search, "--rps", "600", "--envoy-version", "1.27");
        assertThat(before.out())
                .doesNotContain("cap-admits-no-host")
                .contains("(assumes Envoy 1.27)", "before Envoy 1.31 a failing check");
        CliRunner.run("check", search, "--envoy-version", "2.1")
                .assertRejected("--envoy-version", "\"2.1\" is not allowed", "an Envoy release from 1.26 to 1.40");
    }

    @Test
    void checkWarnsWhereSuccessRateAndFailurePercentageCanOfferAHostTwice() throws IOException {
        Path f = dir.resolve("both.yaml");
        Files.writeString(f, """
                name: search
                connect_timeout: 1s
                type: STATIC
                load_assignment:
                  cluster_name: search
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.5, port_value: 80}}}
                outlier_detection:
                  max_ejection_percent: 40
                  enforcing_failure_percentage: 100
                """);
        CliRunner.Outcome r = CliRunner.run("check", f.toString(), "--format", "json");
        assertThat(r.out())
                .contains(
                        "success-rate-failure-percentage-double-offer",
                        "ejected twice",
                        "\"cap_admits_second_offer\" : true");
        // a cap that admits one host of five: the second offer can only overflow, a note
        CliRunner.Outcome capped = CliRunner.run("check", f.toString(), "--hosts", "5");
        assertThat(capped.out()).contains("success-rate-failure-percentage-double-offer");
        Files.writeString(f, Files.readString(f).replace("max_ejection_percent: 40", "max_ejection_percent: 20"));
        assertThat(CliRunner.run("check", f.toString()).out())
                .contains("note    success-rate-failure-percentage-double-offer", "only adds an overflow");
    }
}
