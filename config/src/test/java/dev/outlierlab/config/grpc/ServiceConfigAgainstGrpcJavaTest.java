package dev.outlierlab.config.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import io.grpc.NameResolver.ConfigOrError;
import io.grpc.util.OutlierDetectionLoadBalancer.OutlierDetectionLoadBalancerConfig;
import io.grpc.util.OutlierDetectionLoadBalancerProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lab's service-config reader against grpc-java's own parser ({@code
 * OutlierDetectionLoadBalancerProvider.parseLoadBalancingPolicyConfig}, grpc-util 1.85.1): for seeded random
 * policies, both read the same interval, ejection times, cap and algorithm settings.
 */
class ServiceConfigAgainstGrpcJavaTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fiveHundredRandomPoliciesReadAsGrpcJavaReadsThem() throws Exception {
        SeededRandom random = new SeededRandom(50);
        OutlierDetectionLoadBalancerProvider provider = new OutlierDetectionLoadBalancerProvider();
        for (int k = 0; k < 500; k++) {
            StringBuilder p = new StringBuilder("{");
            if (random.nextModulo(2) == 0) {
                p.append("\"interval\": \"")
                        .append(1 + random.nextModulo(60))
                        .append('.')
                        .append(random.nextModulo(1000))
                        .append("s\", ");
            }
            if (random.nextModulo(2) == 0) {
                p.append("\"baseEjectionTime\": \"")
                        .append(random.nextModulo(100))
                        .append("s\", ");
            }
            if (random.nextModulo(2) == 0) {
                p.append("\"maxEjectionTime\": \"")
                        .append(random.nextModulo(400))
                        .append(".5s\", ");
            }
            if (random.nextModulo(2) == 0) {
                p.append("\"maxEjectionPercentage\": ")
                        .append(random.nextModulo(101))
                        .append(", ");
            }
            if (random.nextModulo(3) != 0) {
                p.append("\"successRateEjection\": {\"stdevFactor\": ")
                        .append(random.nextModulo(5000))
                        .append(", \"enforcementPercentage\": ")
                        .append(random.nextModulo(101))
                        .append(", \"minimumHosts\": ")
                        .append(random.nextModulo(20))
                        .append("}, ");
            }
            if (random.nextModulo(3) != 0) {
                p.append("\"failurePercentageEjection\": {\"threshold\": ")
                        .append(random.nextModulo(101))
                        .append(", \"requestVolume\": ")
                        .append(random.nextModulo(500))
                        .append("}, ");
            }
            p.append("\"childPolicy\": [{\"round_robin\": {}}]}");
            String policy = p.toString();
            GrpcOutlierConfig lab = ServiceConfigReader.read(
                            "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": " + policy + "}]}",
                            "sc.json",
                            GrpcImplementation.JAVA)
                    .config();
            @SuppressWarnings("unchecked")
            Map<String, ?> raw = JSON.readValue(policy, Map.class);
            ConfigOrError parsed = provider.parseLoadBalancingPolicyConfig(toGrpcJson(raw));
            assertThat(parsed.getError()).as(policy).isNull();
            OutlierDetectionLoadBalancerConfig real = (OutlierDetectionLoadBalancerConfig) parsed.getConfig();
            assertThat(lab.intervalNanos()).as(policy).isEqualTo(real.intervalNanos);
            assertThat(lab.baseEjectionTimeNanos()).as(policy).isEqualTo(real.baseEjectionTimeNanos);
            assertThat(lab.maxEjectionTimeNanos()).as(policy).isEqualTo(real.maxEjectionTimeNanos);
            assertThat(lab.maxEjectionPercent()).as(policy).isEqualTo(real.maxEjectionPercent);
            assertThat(lab.successRate() == null).as(policy).isEqualTo(real.successRateEjection == null);
            if (lab.successRate() != null) {
                assertThat(List.of(
                                lab.successRate().stdevFactor(),
                                lab.successRate().enforcementPercentage(),
                                lab.successRate().minimumHosts(),
                                lab.successRate().requestVolume()))
                        .as(policy)
                        .containsExactly(
                                real.successRateEjection.stdevFactor,
                                real.successRateEjection.enforcementPercentage,
                                real.successRateEjection.minimumHosts,
                                real.successRateEjection.requestVolume);
            }
            assertThat(lab.failurePercentage() == null).as(policy).isEqualTo(real.failurePercentageEjection == null);
            if (lab.failurePercentage() != null) {
                assertThat(List.of(
                                lab.failurePercentage().threshold(),
                                lab.failurePercentage().enforcementPercentage(),
                                lab.failurePercentage().minimumHosts(),
                                lab.failurePercentage().requestVolume()))
                        .as(policy)
                        .containsExactly(
                                real.failurePercentageEjection.threshold,
                                real.failurePercentageEjection.enforcementPercentage,
                                real.failurePercentageEjection.minimumHosts,
                                real.failurePercentageEjection.requestVolume);
            }
        }
    }

    /** gRPC's JSON parser gives numbers as Double; Jackson gives Integer. */
    @SuppressWarnings("unchecked")
    private static Map<String, ?> toGrpcJson(Map<String, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, convert(v)));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object convert(Object v) {
        if (v instanceof Map<?, ?> map) {
            return toGrpcJson((Map<String, ?>) map);
        }
        if (v instanceof List<?> list) {
            return list.stream().map(ServiceConfigAgainstGrpcJavaTest::convert).toList();
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        return v;
    }
}
