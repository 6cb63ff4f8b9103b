package dev.outlierlab.config.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayScenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading {@code profile: gateway} scenarios: defaults, every key, overrides, and one message per bad value. */
class GatewayScenarioReaderTest {
    static final long S = Durations.SECOND;

    private static GatewayScenario read(String yaml, String... sets) {
        ScenarioReader.Profiled p = ScenarioReader.readProfiled(yaml, "g.yaml", List.of(sets));
        assertThat(p.name()).isEqualTo("gateway");
        return p.gateway();
    }

    private static void rejected(String yaml, String message) {
        assertThatThrownBy(() -> ScenarioReader.readProfiled(yaml, "g.yaml", List.of()))
                .isInstanceOf(InputException.class)
                .hasMessage(message);
    }

    @Test
    void profileGatewayAloneIsTheLabsDefaultTrafficUnderTheSeedsGateway() {
        assertThat(read("profile: gateway")).isEqualTo(GatewayScenario.defaults());
        assertThat(ScenarioReader.readProfiled("", "g.yaml", List.of()).name()).isEqualTo("envoy");
        assertThat(ScenarioReader.defaultsProfiled(List.of("profile=gateway", "gateway.mode=shadow"))
                        .gateway()
                        .gateway()
                        .mode())
                .isEqualTo(StageMode.SHADOW);
    }

    @Test
    void readsEveryKey() {
        GatewayScenario s = read("""
                profile: gateway
                name: llm
                duration: 120s
                seed: 7
                cluster:
                  hosts: [azure, openai, bedrock]
                traffic: {rps: 50}
                faults:
                  - hosts: [azure]
                    error_rate: 33
                    result: timeout
                gateway:
                  mode: shadow
                  window: 30s
                  bucket: 500ms
                  min_requests: 10
                  stdev_factor: 1.5
                  peer_set: others
                  min_stdev: 0
                  consecutive_failures: 5
                  ejection_time: 1m
                  processes: 4
                routing:
                  strategy: weighted
                  weights: [3, 1, 1]
                  fallbacks: 2
                """);
        assertThat(s.endpoints()).containsExactly("azure", "openai", "bedrock");
        assertThat(s.traffic().rps()).isEqualTo(50);
        assertThat(s.faults().get(0).hosts()).containsExactly("azure");
        assertThat(s.gateway())
                .isEqualTo(new GatewayConfig(
                        StageMode.SHADOW,
                        30 * S,
                        500 * Durations.MILLISECOND,
                        10,
                        1.5,
                        PeerSet.OTHERS,
                        0,
                        5,
                        60 * S,
                        4));
        assertThat(s.routing().strategy()).isEqualTo(RoutingStrategy.WEIGHTED);
        assertThat(s.routing().weights()).containsExactly(3, 1, 1);
        assertThat(s.routing().fallbacks()).isEqualTo(2);
        assertThat(read("", "profile=gateway", "gateway.mode=off", "routing.strategy=ordered")
                        .routing()
                        .strategy())
                .isEqualTo(RoutingStrategy.ORDERED);
    }

    @Test
    void writerOutputReadsBackToTheSameScenario() throws Exception {
        GatewayScenario s = read("""
                profile: gateway
                cluster: {hosts: [a, b]}
                faults: [{hosts: [b], error_rate: 50, start: 10s, end: 20s}]
                gateway: {mode: shadow, min_stdev: 0.5, stdev_factor: 3}
                routing: {strategy: weighted, weights: [2, 1], fallbacks: 1}
                """);
        String json = new ObjectMapper().writeValueAsString(GatewayScenarioWriter.toMap(s));
        assertThat(read(json)).isEqualTo(s);
    }

    @Test
    void badValuesGiveOneMessageWithKeyValueLineAndWhatIsAllowed() {
        rejected(
                "profile: gateway\ngateway:\n  mode: live\n",
                "g.yaml:3: gateway.mode: \"live\" is not allowed; expected one of off, shadow, prod");
        rejected(
                "profile: gateway\ngateway:\n  window: 2500ms\n",
                "g.yaml:3: gateway.window: 2.500s is not allowed; expected a whole number of buckets (bucket is 1s), "
                        + "such as 2s");
        rejected(
                "profile: gateway\ncluster: {hosts: [a, b, c]}\nrouting:\n  strategy: weighted\n  weights: [2, 1]\n",
                "g.yaml:5: routing.weights: [2, 1] is not allowed; expected one positive whole number per endpoint "
                        + "(3 endpoints, 2 weights)");
        rejected(
                "profile: gateway\ngateway:\n  stdev_factor: -2\n",
                "g.yaml:3: gateway.stdev_factor: -2 is not allowed; expected a number from 0 to 1000, such as 2.0");
        rejected(
                "profile: gateway\ngateway:\n  peer_set: rest\n",
                "g.yaml:3: gateway.peer_set: \"rest\" is not allowed; expected one of all, others");
        rejected(
                "profile: gateway\ngateway:\n  windw: 60s\n",
                "g.yaml:3: unknown key 'gateway.windw' (did you mean 'window'?); allowed under gateway: bucket, "
                        + "consecutive_failures, ejection_time, min_requests, min_stdev, mode, peer_set, processes, "
                        + "stdev_factor, window");
        rejected(
                "profile: istio\n",
                "g.yaml:1: profile: \"istio\" is not allowed; expected envoy, grpc, gateway, nginx, haproxy or caddy");
    }

    @Test
    void settingsOfTheOtherProfileAreRefusedWithTheReason() {
        rejected(
                "profile: gateway\noutlier_detection:\n  consecutive_5xx: 3\n",
                "g.yaml:3: outlier_detection is Envoy's (profile: envoy) setting, but this scenario's profile is "
                        + "gateway; remove it, or use profile: envoy");
        rejected(
                "profile: gateway\ncluster:\n  hosts: 2\n  panic_threshold: 50\n",
                "g.yaml:4: cluster.panic_threshold is Envoy's (profile: envoy) setting, but this scenario's profile "
                        + "is gateway; remove it, or use profile: envoy");
        rejected(
                "gateway:\n  mode: shadow\n",
                "g.yaml:2: gateway is the gateway profile's setting, but this scenario's profile is envoy; add "
                        + "profile: gateway to use it, or remove it");
        assertThatThrownBy(() -> ScenarioReader.read("profile: gateway", "g.yaml", List.of()))
                .hasMessageContaining("profile: gateway scenarios are taken by run and sweep");
    }

    @Test
    void minStdevTakesATrailingPercentSign() {
        assertThat(read("profile: gateway\ngateway: {min_stdev: 0.5%}\n")
                        .gateway()
                        .minStdevPercent())
                .isEqualTo(0.5);
    }
}
