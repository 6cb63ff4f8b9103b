package dev.outlierlab.config.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.YamlTreeTestSupport;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioReaderTest {
    private static Scenario read(String yaml, String... sets) {
        return ScenarioReader.read(yaml, "s.yaml", List.of(sets)).scenario();
    }

    @Test
    void emptyFileIsTheSeedsDefaultScenario() {
        Scenario s = read("");
        assertThat(s).isEqualTo(Scenario.defaults());
        assertThat(s.faults().get(0).errorRatePpm()).isEqualTo(330_000);
        assertThat(s.outlierDetection().maxEjectionTimeNanos()).isEqualTo(300_000_000_000L);
        assertThat(ScenarioReader.read("", "s.yaml", List.of()).hostsGiven()).isFalse();
    }

    @Test
    void readsEveryKindOfValue() {
        Scenario s = read("""
                name: checkout
                duration: 5m
                seed: 42
                cluster:
                  hosts: [a, b, c]
                  panic_threshold: 33.5
                traffic: {rps: 900}
                faults:
                  - hosts: [b]
                    start: 1.5s
                    end: 90000ms
                    error_rate: 12.3456
                    result: timeout
                    fails_health_check: true
                outlier_detection:
                  interval: 2s
                  base_ejection_time: 0.5m
                  max_ejection_percent: 67
                  split_external_local_origin_errors: true
                  max_ejection_time_jitter: 250ms
                health_checks:
                  interval: 1s
                """);
        assertThat(s.name()).isEqualTo("checkout");
        assertThat(s.durationNanos()).isEqualTo(300_000_000_000L);
        assertThat(s.seed()).isEqualTo(42);
        assertThat(s.cluster().hosts()).containsExactly("a", "b", "c");
        assertThat(s.cluster().panicThresholdPercent()).isEqualTo(33.5);
        assertThat(s.traffic().rps()).isEqualTo(900);
        FaultSpec f = s.faults().get(0);
        assertThat(f.startNanos()).isEqualTo(1_500_000_000L);
        assertThat(f.endNanos()).isEqualTo(90_000_000_000L);
        assertThat(f.errorRatePpm()).isEqualTo(123_456);
        assertThat(f.result()).isEqualTo(FaultResult.TIMEOUT);
        assertThat(f.failsHealthCheck()).isTrue();
        assertThat(f.healthCheckFailure()).isEqualTo(HealthCheckFailure.STATUS);
        assertThat(s.outlierDetection().intervalNanos()).isEqualTo(2_000_000_000L);
        assertThat(s.outlierDetection().baseEjectionTimeNanos()).isEqualTo(30_000_000_000L);
        assertThat(s.outlierDetection().maxEjectionPercent()).isEqualTo(67);
        assertThat(s.outlierDetection().splitExternalLocalOriginErrors()).isTrue();
        assertThat(s.outlierDetection().maxEjectionTimeJitterNanos()).isEqualTo(250_000_000L);
        assertThat(s.healthChecks().intervalNanos()).isEqualTo(1_000_000_000L);
        assertThat(s.healthChecks().unhealthyThreshold()).isEqualTo(3);
        assertThat(s.healthChecks().healthyThreshold()).isEqualTo(2);
    }

    @Test
    void faultDefaultsAreTheFirstHostFailingEverythingForTheWholeRun() {
        Scenario s = read("duration: 60s\nfaults:\n  - {}\n");
        FaultSpec f = s.faults().get(0);
        assertThat(f.hosts()).containsExactly("host-0");
        assertThat(f.startNanos()).isZero();
        assertThat(f.endNanos()).isEqualTo(60_000_000_000L);
        assertThat(f.errorRatePpm()).isEqualTo(1_000_000);
        assertThat(f.status()).isEqualTo(503);
        assertThat(read("faults: []").faults()).isEmpty();
    }

    @Test
    void mergeKeysFillWhatIsNotGiven() {
        Scenario s = read("""
                faults:
                  - &slow {hosts: 2, error_rate: 50, start: 10s, end: 20s}
                  - <<: *slow
                    error_rate: 10
                """);
        assertThat(s.faults()).hasSize(2);
        assertThat(s.faults().get(1).hosts()).containsExactly("host-0", "host-1");
        assertThat(s.faults().get(1).errorRatePpm()).isEqualTo(100_000);
        assertThat(s.faults().get(1).startNanos()).isEqualTo(10_000_000_000L);
    }

    @Test
    void setOverridesEditTheDefaultFaultAndAppend() {
        Scenario s = read(
                "",
                "faults[0].error_rate=100",
                "faults[1].hosts=[host-5]",
                "faults[1].error_rate=5",
                "outlier_detection.max_ejection_percent=34",
                "cluster.hosts=8");
        assertThat(s.faults()).hasSize(2);
        assertThat(s.faults().get(0).errorRatePpm()).isEqualTo(1_000_000);
        assertThat(s.faults().get(0).startNanos()).isEqualTo(30_000_000_000L);
        assertThat(s.faults().get(1).hosts()).containsExactly("host-5");
        assertThat(s.outlierDetection().get(OutlierSetting.MAX_EJECTION_PERCENT))
                .isEqualTo(34);
        assertThat(s.outlierDetection().isExplicit(OutlierSetting.MAX_EJECTION_PERCENT))
                .isTrue();
        assertThat(s.cluster().size()).isEqualTo(8);
    }

    @Test
    void writerOutputReadsBackToAnEqualScenario() {
        Scenario original = read("""
                cluster: {hosts: [x, y, z, w, v], panic_threshold: 0}
                faults:
                  - {hosts: [y, z], error_rate: 0.0001, start: 1ms, end: 2.5s, status: 502}
                  - {hosts: [x], result: connect_failed}
                  - {hosts: [w], status: 503, latency: 1500ms}
                  - {hosts: [v], kind: degraded, error_rate: 10, latency: 0.25}
                outlier_detection: {max_ejection_time: 45s, enforcing_failure_percentage: 70, always_eject_one_host: true}
                health_checks: {interval: 3s, unhealthy_threshold: 1, healthy_threshold: 4}
                """);
        String json = YamlTreeTestSupport.toJson(ScenarioWriter.toMap(original));
        assertThat(read(json)).isEqualTo(original);
        assertThat(original.faults().get(2).latencyNanos()).isEqualTo(1_500_000_000L);
        assertThat(original.faults().get(3).latencyNanos()).isEqualTo(250_000_000L);
        assertThat(original.faults().get(0).latencyNanos()).isZero();
    }

    @Test
    void healthCheckFailuresHaveAKindThatReadsBack() {
        for (String kind : List.of("status", "timeout", "refused")) {
            Scenario s = read("faults:\n  - hosts: 1\n    fails_health_check: " + kind + "\n");
            assertThat(s.faults().get(0).healthCheckFailure().scenarioName()).isEqualTo(kind);
            assertThat(ScenarioWriter.toMap(s).toString()).contains("fails_health_check=" + kind);
        }
        assertThat(read("faults:\n  - hosts: 1\n    fails_health_check: false\n")
                        .faults()
                        .get(0)
                        .failsHealthCheck())
                .isFalse();
        assertThatThrownBy(() -> read("faults:\n  - hosts: 1\n    fails_health_check: maybe\n"))
                .hasMessage("s.yaml:3: faults[0].fails_health_check: \"maybe\" is not allowed; expected false, or how "
                        + "the probes fail: status (true means status), timeout, refused");
    }

    @Test
    void errorsNameTheLineKeyValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> read("name: x\n\ntraffic:\n  rps: 0\n"))
                .isInstanceOf(InputException.class)
                .hasMessage("s.yaml:4: traffic.rps: 0 is not allowed; expected a whole number from 1 to 1000000000");
        assertThatThrownBy(() -> read("colour: red\n"))
                .hasMessageStartingWith("s.yaml:1: unknown key 'colour'; allowed at the top level: cluster, duration");
        assertThatThrownBy(() -> read("faults:\n  - hosts: 1\n    start: 50s\n    end: 40s\n"))
                .hasMessage("s.yaml:2: faults[0].end: 40s is not allowed; expected a time at or after start (50s)");
        assertThatThrownBy(() -> read("cluster:\n  hosts: [a, a]\n"))
                .hasMessageContaining("cluster.hosts: a is not allowed; expected distinct host names");
        assertThatThrownBy(() -> read("- a\n- b\n")).hasMessageContaining("a scenario is a mapping of keys");
        assertThatThrownBy(() -> read("seed: 1\nseed: 2\n")).hasMessage("s.yaml:2: duplicate key 'seed'");
        assertThatThrownBy(() -> read("", "faults[3].error_rate=1"))
                .hasMessage(
                        "--set faults[3].error_rate: index 3 is out of range; faults has 1 entries (use [1] to add one)");
    }

    @Test
    void percentagesAreReadWithOrWithoutATrailingPercentSign() {
        assertThat(read("faults:\n  - error_rate: 35%\n").faults().get(0).errorRatePpm())
                .isEqualTo(350_000);
        assertThat(read("faults:\n  - error_rate: 35\n").faults().get(0).errorRatePpm())
                .isEqualTo(350_000);
        assertThat(read("faults:\n  - error_rate: 100%\n").faults().get(0).errorRatePpm())
                .isEqualTo(1_000_000);
        assertThat(read("faults:\n  - error_rate: 12.3456 %\n").faults().get(0).errorRatePpm())
                .isEqualTo(123_456);
        assertThat(read("", "faults[0].error_rate=100%").faults().get(0).errorRatePpm())
                .isEqualTo(1_000_000);
        Scenario s = read("""
                cluster:
                  panic_threshold: 12.5%
                outlier_detection:
                  max_ejection_percent: 34%
                  enforcing_failure_percentage: 70%
                  failure_percentage_threshold: 85
                """);
        assertThat(s.cluster().panicThresholdPercent()).isEqualTo(12.5);
        assertThat(s.outlierDetection().maxEjectionPercent()).isEqualTo(34);
        assertThat(s.outlierDetection().get(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE))
                .isEqualTo(70);
        assertThat(s.outlierDetection().get(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD))
                .isEqualTo(85);
    }

    @Test
    void aPercentageThatIsNotANumberWithOnePercentSignIsRefusedAsWritten() {
        String rate = "; expected a percentage from 0 to 100 with at most 4 decimals";
        assertThatThrownBy(() -> read("faults:\n  - error_rate: 35%%\n"))
                .isInstanceOf(InputException.class)
                .hasMessage("s.yaml:2: faults[0].error_rate: \"35%%\" is not allowed" + rate);
        assertThatThrownBy(() -> read("faults:\n  - error_rate: abc\n"))
                .hasMessage("s.yaml:2: faults[0].error_rate: \"abc\" is not allowed" + rate);
        assertThatThrownBy(() -> read("faults:\n  - error_rate: 101%\n"))
                .hasMessage("s.yaml:2: faults[0].error_rate: \"101%\" is not allowed" + rate);
        assertThatThrownBy(() -> read("faults:\n  - error_rate: \"%\"\n"))
                .hasMessage("s.yaml:2: faults[0].error_rate: \"%\" is not allowed" + rate);
        assertThatThrownBy(() -> read("outlier_detection:\n  max_ejection_percent: 101%\n"))
                .hasMessage("s.yaml:2: outlier_detection.max_ejection_percent: \"101%\" is not allowed; expected a"
                        + " whole number from 0 to 100");
        assertThatThrownBy(() -> read("outlier_detection:\n  max_ejection_percent: 34.5%\n"))
                .hasMessage("s.yaml:2: outlier_detection.max_ejection_percent: \"34.5%\" is not allowed; expected a"
                        + " whole number from 0 to 100");
        assertThatThrownBy(() -> read("cluster:\n  panic_threshold: -1%\n"))
                .hasMessage("s.yaml:2: cluster.panic_threshold: \"-1%\" is not allowed; expected a percentage from 0"
                        + " to 100 (0 disables panic mode)");
        assertThatThrownBy(() -> read("", "faults[0].error_rate=101%"))
                .hasMessage("--set faults[0].error_rate: \"101%\" is not allowed" + rate);
    }
}
