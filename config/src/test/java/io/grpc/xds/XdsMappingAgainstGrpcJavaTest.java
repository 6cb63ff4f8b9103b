package io.grpc.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Duration;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.util.JsonFormat;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyCluster;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import dev.outlierlab.engine.grpc.XdsOutlierMapping;
import io.grpc.util.OutlierDetectionLoadBalancer.OutlierDetectionLoadBalancerConfig;
import io.grpc.xds.client.XdsResourceType.ResourceInvalidException;
import io.grpc.xds.shaded.io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import java.lang.reflect.Method;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lab's reading of an Envoy cluster's {@code outlier_detection} for a grpc-java client ({@link XdsOutlierMapping}
 * with {@link GrpcImplementation#JAVA}, reached as {@code --envoy FILE --profile grpc} reaches it, through the lab's
 * Envoy reader) against grpc-java's own code, grpc-xds 1.85.1: {@code XdsClusterResource.validateOutlierDetection}
 * (which NACKs), {@code EnvoyServerProtoData.OutlierDetection.fromEnvoyOutlierDetection} and
 * {@code CdsLoadBalancer2.buildOutlierDetectionLbConfig} (private, called by reflection), for 600 seeded random
 * {@code outlier_detection} messages. Durations are whole milliseconds: Envoy (and so the lab) reads them in
 * milliseconds, gRPC in nanoseconds, which the lab's notes say. A cluster Envoy rejects ({@code max_ejection_time}
 * below {@code base_ejection_time}) and grpc-java would read is refused by the lab's Envoy reader; those are counted,
 * not compared.
 */
class XdsMappingAgainstGrpcJavaTest {
    private static final int CASES = 600;

    @Test
    void theLabMapsEveryRandomOutlierDetectionAsGrpcJavaDoes() throws Exception {
        Method build = CdsLoadBalancer2.class.getDeclaredMethod(
                "buildOutlierDetectionLbConfig", EnvoyServerProtoData.OutlierDetection.class, Object.class);
        build.setAccessible(true);
        Random random = new Random(20_261_205L);
        int fpOnWithoutEnforcing = 0;
        int nacked = 0;
        int envoyRejects = 0;
        for (int i = 0; i < CASES; i++) {
            OutlierDetection od = randomOutlierDetection(random);
            String yaml = "name: c\ntype: STATIC\noutlier_detection: "
                    + JsonFormat.printer().omittingInsignificantWhitespace().print(od) + "\n";
            OutlierDetectionLoadBalancerConfig real;
            try {
                real = (OutlierDetectionLoadBalancerConfig) build.invoke(
                        null,
                        EnvoyServerProtoData.OutlierDetection.fromEnvoyOutlierDetection(
                                XdsClusterResource.validateOutlierDetection(od)),
                        "child");
            } catch (ResourceInvalidException e) {
                real = null;
            }
            GrpcOutlierConfig lab;
            String refused = null;
            try {
                EnvoyCluster cluster = EnvoyConfigReader.read(yaml, "case-" + i + ".yaml")
                        .cluster(null)
                        .requireValid();
                lab = XdsOutlierMapping.of(cluster.outlierDetection(), GrpcImplementation.JAVA)
                        .config();
            } catch (InvalidConfigException | InputException e) {
                lab = null;
                refused = e.getMessage();
            }
            String at = "case " + i + ": " + yaml + (refused == null ? "" : " (the lab: " + refused + ")");
            if (real == null) {
                nacked++;
                assertThat(lab).as("grpc-java NACKs %s", at).isNull();
                continue;
            }
            if (lab == null && refused != null && refused.contains("Envoy rejects")) {
                // a cluster Envoy refuses (max_ejection_time below base_ejection_time) that gRPC would read: the lab
                // reads Envoy files, and says Envoy rejects it
                envoyRejects++;
                continue;
            }
            assertThat(lab).as("grpc-java accepts %s", at).isNotNull();
            assertThat(lab.intervalNanos()).as(at).isEqualTo(real.intervalNanos);
            assertThat(lab.baseEjectionTimeNanos()).as(at).isEqualTo(real.baseEjectionTimeNanos);
            assertThat(lab.maxEjectionTimeNanos()).as(at).isEqualTo(real.maxEjectionTimeNanos);
            assertThat(lab.maxEjectionPercent()).as(at).isEqualTo(real.maxEjectionPercent);
            if (real.successRateEjection == null) {
                assertThat(lab.successRate()).as(at).isNull();
            } else {
                SuccessRateEjection sr = lab.successRate();
                assertThat(sr).as(at).isNotNull();
                assertThat(sr.stdevFactor()).as(at).isEqualTo(real.successRateEjection.stdevFactor);
                assertThat(sr.enforcementPercentage()).as(at).isEqualTo(real.successRateEjection.enforcementPercentage);
                assertThat(sr.minimumHosts()).as(at).isEqualTo(real.successRateEjection.minimumHosts);
                assertThat(sr.requestVolume()).as(at).isEqualTo(real.successRateEjection.requestVolume);
            }
            if (real.failurePercentageEjection == null) {
                assertThat(lab.failurePercentage()).as(at).isNull();
            } else {
                FailurePercentageEjection fp = lab.failurePercentage();
                assertThat(fp).as(at).isNotNull();
                assertThat(fp.threshold()).as(at).isEqualTo(real.failurePercentageEjection.threshold);
                assertThat(fp.enforcementPercentage())
                        .as(at)
                        .isEqualTo(real.failurePercentageEjection.enforcementPercentage);
                assertThat(fp.minimumHosts()).as(at).isEqualTo(real.failurePercentageEjection.minimumHosts);
                assertThat(fp.requestVolume()).as(at).isEqualTo(real.failurePercentageEjection.requestVolume);
                if (!od.hasEnforcingFailurePercentage()) {
                    fpOnWithoutEnforcing++;
                }
            }
        }
        // the cases mean something: failure percentage turned on by an unset field, and NACKed clusters
        assertThat(fpOnWithoutEnforcing).isGreaterThan(CASES / 10);
        assertThat(nacked).isGreaterThan(CASES / 50);
        assertThat(envoyRejects).isLessThan(CASES / 5);
    }

    @Test
    void grpcJavaRunsFailurePercentageWhenEnforcingIsUnset() throws Exception {
        Method build = CdsLoadBalancer2.class.getDeclaredMethod(
                "buildOutlierDetectionLbConfig", EnvoyServerProtoData.OutlierDetection.class, Object.class);
        build.setAccessible(true);
        OutlierDetectionLoadBalancerConfig real = (OutlierDetectionLoadBalancerConfig) build.invoke(
                null,
                EnvoyServerProtoData.OutlierDetection.fromEnvoyOutlierDetection(OutlierDetection.getDefaultInstance()),
                "child");
        assertThat(real.failurePercentageEjection.threshold).isEqualTo(85);
        assertThat(real.failurePercentageEjection.enforcementPercentage).isEqualTo(100);
        GrpcOutlierConfig lab = XdsOutlierMapping.of(
                        EnvoyConfigReader.read("name: c\ntype: STATIC\n" + "outlier_detection: {}\n", "c.yaml")
                                .cluster(null)
                                .outlierDetection(),
                        GrpcImplementation.JAVA)
                .config();
        assertThat(lab.failurePercentage().enforcementPercentage()).isEqualTo(100);
        // grpc-go and C-core leave it off
        assertThat(XdsOutlierMapping.of(
                                EnvoyConfigReader.read("name: c\ntype: STATIC\noutlier_detection: {}\n", "c.yaml")
                                        .cluster(null)
                                        .outlierDetection(),
                                GrpcImplementation.GO)
                        .config()
                        .failurePercentage())
                .isNull();
    }

    private static OutlierDetection randomOutlierDetection(Random r) {
        OutlierDetection.Builder b = OutlierDetection.newBuilder();
        if (r.nextBoolean()) {
            b.setInterval(millis(r, 1, 60_000));
        }
        if (r.nextBoolean()) {
            b.setBaseEjectionTime(millis(r, 1, 600_000));
        }
        if (r.nextInt(3) == 0) {
            b.setMaxEjectionTime(millis(r, 1, 900_000));
        }
        if (r.nextBoolean()) {
            b.setMaxEjectionPercent(u32(r.nextInt(10) == 0 ? 101 + r.nextInt(50) : r.nextInt(101)));
        }
        if (r.nextBoolean()) {
            b.setEnforcingSuccessRate(u32(r.nextInt(3) == 0 ? 0 : r.nextInt(101)));
        }
        if (r.nextBoolean()) {
            b.setSuccessRateStdevFactor(u32(r.nextInt(5000)));
        }
        if (r.nextBoolean()) {
            b.setSuccessRateMinimumHosts(u32(r.nextInt(20)));
        }
        if (r.nextBoolean()) {
            b.setSuccessRateRequestVolume(u32(r.nextInt(500)));
        }
        if (r.nextBoolean()) {
            b.setEnforcingFailurePercentage(u32(r.nextInt(3) == 0 ? 0 : r.nextInt(101)));
        }
        if (r.nextBoolean()) {
            b.setFailurePercentageThreshold(u32(r.nextInt(101)));
        }
        if (r.nextBoolean()) {
            b.setFailurePercentageMinimumHosts(u32(r.nextInt(20)));
        }
        if (r.nextBoolean()) {
            b.setFailurePercentageRequestVolume(u32(r.nextInt(500)));
        }
        if (r.nextBoolean()) {
            b.setConsecutive5Xx(u32(r.nextInt(10)));
        }
        return b.build();
    }

    private static Duration millis(Random r, int min, int max) {
        long ms = min + r.nextInt(max - min);
        return Duration.newBuilder()
                .setSeconds(ms / 1000)
                .setNanos((int) (ms % 1000) * 1_000_000)
                .build();
    }

    private static UInt32Value u32(int v) {
        return UInt32Value.of(v);
    }
}
