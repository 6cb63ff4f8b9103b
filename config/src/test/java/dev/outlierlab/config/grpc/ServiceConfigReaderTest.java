package dev.outlierlab.config.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import org.junit.jupiter.api.Test;

class ServiceConfigReaderTest {
    private static final String CHILD = "\"childPolicy\": [{\"round_robin\": {}}]";

    private static GrpcSettings read(String policy, GrpcImplementation impl) {
        return ServiceConfigReader.read(
                "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": " + policy + "}]}", "sc.json", impl);
    }

    @Test
    void readsEveryFieldInGrpcJavasSpelling() {
        GrpcSettings s = read(
                "{\"interval\": \"2.5s\", \"baseEjectionTime\": \"0.25s\", \"maxEjectionTime\": \"60s\","
                        + " \"maxEjectionPercentage\": 40, \"successRateEjection\": {\"stdevFactor\": 1000,"
                        + " \"enforcementPercentage\": 50, \"minimumHosts\": 3, \"requestVolume\": 20},"
                        + " \"failurePercentageEjection\": {\"threshold\": 70, \"minimumHosts\": 2}, " + CHILD + "}",
                GrpcImplementation.JAVA);
        GrpcOutlierConfig c = s.config();
        assertThat(c.intervalNanos()).isEqualTo(2_500 * Durations.MILLISECOND);
        assertThat(c.baseEjectionTimeNanos()).isEqualTo(250 * Durations.MILLISECOND);
        assertThat(c.maxEjectionTimeNanos()).isEqualTo(60 * Durations.SECOND);
        assertThat(c.maxEjectionPercent()).isEqualTo(40);
        assertThat(c.successRate().stdevFactor()).isEqualTo(1000);
        assertThat(c.successRate().enforcementPercentage()).isEqualTo(50);
        assertThat(c.successRate().minimumHosts()).isEqualTo(3);
        assertThat(c.successRate().requestVolume()).isEqualTo(20);
        assertThat(c.failurePercentage().threshold()).isEqualTo(70);
        assertThat(c.failurePercentage().enforcementPercentage()).isEqualTo(100);
        assertThat(c.failurePercentage().minimumHosts()).isEqualTo(2);
        assertThat(c.failurePercentage().requestVolume()).isEqualTo(50);
        assertThat(s.notes()).isEmpty();
    }

    @Test
    void anAbsentAlgorithmIsOffAndTheNoteSaysNothingIsEjected() {
        GrpcSettings s = read("{" + CHILD + "}", GrpcImplementation.JAVA);
        assertThat(s.config().enabled()).isFalse();
        assertThat(s.notes()).singleElement().asString().contains("ejects nothing");
    }

    @Test
    void eachLibraryIgnoresTheOtherSpellingOfTheCap() {
        String policy = "{\"maxEjectionPercent\": 50, \"successRateEjection\": {}, " + CHILD + "}";
        GrpcSettings java = read(policy, GrpcImplementation.JAVA);
        assertThat(java.config().maxEjectionPercent()).isEqualTo(10);
        assertThat(java.notes())
                .singleElement()
                .asString()
                .isEqualTo(
                        "maxEjectionPercent is ignored by grpc-java, which reads maxEjectionPercentage: the cap stays"
                                + " at the default 10 %");
        assertThat(read(policy, GrpcImplementation.GO).config().maxEjectionPercent())
                .isEqualTo(50);
        assertThat(read(policy, GrpcImplementation.CORE).config().maxEjectionPercent())
                .isEqualTo(50);
    }

    @Test
    void aMissingChildPolicyIsOneMessageNamingTheKey() {
        assertThatThrownBy(() -> read("{\"successRateEjection\": {}}", GrpcImplementation.JAVA))
                .isInstanceOf(InputException.class)
                .hasMessage("sc.json:1: loadBalancingConfig.outlier_detection_experimental.childPolicy: missing; gRPC"
                        + " requires a child policy, such as \"childPolicy\": [{\"round_robin\": {}}]");
    }

    @Test
    void anUnknownKeyIsNamedWithTheNearestAndWhatGrpcAllows() {
        assertThatThrownBy(() ->
                        read("{\"successRateEjection\": {\"stdevFactr\": 1}, " + CHILD + "}", GrpcImplementation.JAVA))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("unknown key 'loadBalancingConfig.outlier_detection_experimental"
                        + ".successRateEjection.stdevFactr' (did you mean 'stdevFactor'?); gRPC allows under")
                .hasMessageContaining("enforcementPercentage, minimumHosts, requestVolume, stdevFactor");
    }

    @Test
    void outOfRangeValuesNameTheKeyAndTheRange() {
        assertThatThrownBy(() -> read(
                        "{\"failurePercentageEjection\": {\"threshold\": 101}, " + CHILD + "}",
                        GrpcImplementation.JAVA))
                .hasMessage("sc.json:1: loadBalancingConfig.outlier_detection_experimental.failurePercentageEjection"
                        + ".threshold: 101 is not allowed; gRPC allows a whole number from 0 to 100");
        assertThatThrownBy(() -> read("{\"baseEjectionTime\": \"-1s\", " + CHILD + "}", GrpcImplementation.JAVA))
                .hasMessageContaining("baseEjectionTime: \"-1s\" is not allowed; gRPC allows a google.protobuf.Duration"
                        + " string of at least 0");
        assertThatThrownBy(() -> read("{\"interval\": 10, " + CHILD + "}", GrpcImplementation.JAVA))
                .hasMessageContaining("interval: 10 is not allowed");
        assertThatThrownBy(() -> read(
                        "{\"successRateEjection\": {\"minimumHosts\": -1}, " + CHILD + "}", GrpcImplementation.JAVA))
                .hasMessageContaining("minimumHosts: -1 is not allowed; gRPC allows a whole number of at least 0");
    }

    @Test
    void aKnownPolicyBeforeOutlierDetectionMeansNoneRuns() {
        assertThatThrownBy(() -> ServiceConfigReader.read(
                        "{\"loadBalancingConfig\": [{\"round_robin\": {}}," + " {\"outlier_detection_experimental\": {"
                                + CHILD + "}}]}",
                        "sc.json",
                        GrpcImplementation.JAVA))
                .hasMessageContaining("loadBalancingConfig[0]: round_robin comes before outlier_detection_experimental,"
                        + " and gRPC uses the first policy it knows");
        GrpcSettings skipped = ServiceConfigReader.read(
                "{\"loadBalancingConfig\": [{\"my_policy\": {}},"
                        + " {\"outlier_detection_experimental\": {\"successRateEjection\": {}, " + CHILD + "}}]}",
                "sc.json",
                GrpcImplementation.JAVA);
        assertThat(skipped.config().successRate()).isNotNull();
    }
}
