package dev.outlierlab.config.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrpcScenarioReaderTest {
    private static ScenarioReader.Profiled read(String yaml, String... sets) {
        return ScenarioReader.readProfiled(yaml, "s.yaml", List.of(sets));
    }

    @Test
    void aGrpcBlockGivesTheServiceConfigsFieldsAndAnAbsentAlgorithmIsOff() {
        ScenarioReader.Profiled p = read("""
                profile: grpc
                grpc:
                  interval: 5s
                  max_ejection_percent: 50
                  failure_percentage_ejection:
                    threshold: 60
                  implementation: core
                """);
        GrpcOutlierConfig c = p.grpc().config();
        assertThat(p.name()).isEqualTo("grpc");
        assertThat(c.intervalNanos()).isEqualTo(5 * Durations.SECOND);
        assertThat(c.baseEjectionTimeNanos()).isEqualTo(30 * Durations.SECOND);
        assertThat(c.maxEjectionPercent()).isEqualTo(50);
        assertThat(c.successRate()).isNull();
        assertThat(c.failurePercentage().threshold()).isEqualTo(60);
        assertThat(c.failurePercentage().requestVolume()).isEqualTo(50);
        assertThat(c.implementation()).isEqualTo(GrpcImplementation.CORE);
        assertThat(p.grpc().origin()).isEqualTo("the scenario's grpc block");
    }

    @Test
    void withoutABlockTheEnvoySettingsAreReadAsGrpcsXdsClientMapsThem() {
        ScenarioReader.Profiled p = read(
                "",
                "profile=grpc",
                "outlier_detection.enforcing_failure_percentage=30",
                "outlier_detection.max_ejection_time_jitter=2s");
        GrpcOutlierConfig c = p.grpc().config();
        assertThat(c.successRate().stdevFactor()).isEqualTo(1900);
        assertThat(c.failurePercentage().enforcementPercentage()).isEqualTo(30);
        assertThat(c.failurePercentage().threshold()).isEqualTo(85);
        assertThat(p.grpc().notes())
                .anySatisfy(
                        n -> assertThat(n).startsWith("outlier_detection.max_ejection_time_jitter is ignored by gRPC"));
        assertThat(read("", "profile=grpc", "outlier_detection.enforcing_success_rate=0")
                        .grpc()
                        .config()
                        .successRate())
                .isNull();
    }

    @Test
    void badValuesAndKeysAreOneMessageWithTheLine() {
        assertThatThrownBy(
                        () -> read("profile: grpc\ngrpc:\n  success_rate_ejection:\n    enforcement_percentage: 101\n"))
                .isInstanceOf(InputException.class)
                .hasMessage(
                        "s.yaml:4: grpc.success_rate_ejection.enforcement_percentage: 101 is not allowed; expected a"
                                + " whole number from 0 to 100");
        assertThatThrownBy(() -> read("profile: grpc\ngrpc:\n  intervl: 5s\n"))
                .hasMessageStartingWith("s.yaml:3: unknown key 'grpc.intervl' (did you mean 'interval'?)");
        assertThatThrownBy(() -> read("profile: grpc\ngrpc:\n  implementation: rust\n"))
                .hasMessage("s.yaml:3: grpc.implementation: \"rust\" is not allowed; expected one of java, go, core");
        assertThatThrownBy(() -> read("grpc:\n  interval: 5s\n"))
                .hasMessage("s.yaml:2: grpc is the gRPC profile's setting, but this scenario's profile is envoy; add"
                        + " profile: grpc to use it, or remove it");
    }

    @Test
    void theGrpcBlocksPercentagesTakeATrailingPercentSign() {
        GrpcOutlierConfig c = read("""
                        profile: grpc
                        grpc:
                          max_ejection_percent: 50%
                          success_rate_ejection: {enforcement_percentage: 80%}
                          failure_percentage_ejection: {threshold: 60%, enforcement_percentage: 90}
                        """).grpc().config();
        assertThat(c.maxEjectionPercent()).isEqualTo(50);
        assertThat(c.successRate().enforcementPercentage()).isEqualTo(80);
        assertThat(c.failurePercentage().threshold()).isEqualTo(60);
        assertThat(c.failurePercentage().enforcementPercentage()).isEqualTo(90);
        assertThatThrownBy(() -> read("profile: grpc\ngrpc:\n  failure_percentage_ejection: {threshold: 101%}\n"))
                .hasMessage("s.yaml:3: grpc.failure_percentage_ejection.threshold: \"101%\" is not allowed; expected a"
                        + " whole number from 0 to 100");
    }
}
