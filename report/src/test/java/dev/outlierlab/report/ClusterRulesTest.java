package dev.outlierlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each cluster of a mesh's log gets the block istiod gives it: payments' v1 the rule's (consecutive5xxErrors 5,
 * maxEjectionPercent 10), v2 its own (3 and 50), the service's own cluster the rule's; a service no rule covers and
 * Istio's PassthroughCluster none; a log with no cluster named as Istio names them keeps the one rule for all.
 */
class ClusterRulesTest {
    private static final String RULE = "../docs/examples/payments-destination-rule.yaml";

    private static ReplayGroup group(String cluster) {
        return new ReplayGroup(cluster, "", List.of("10.0.3.11:8080"), 0, 1, 1);
    }

    @Test
    void eachClusterGetsItsBlock() throws IOException {
        IstioConfig rules = DestinationRuleReader.read(Files.readString(Path.of(RULE)), RULE, null);
        Scenario base = ScenarioReader.defaults(List.of()).scenario();
        String v1 = "outbound|8080|v1|payments.shop.svc.cluster.local";
        String v2 = "outbound|8080|v2|payments.shop.svc.cluster.local";
        String own = "outbound|8080||payments.shop.svc.cluster.local";
        String ratings = "outbound|9080||ratings.shop.svc.cluster.local";
        ClusterRules r = ClusterRules.of(
                rules, base, List.of(group(v1), group(v2), group(own), group(ratings), group("PassthroughCluster")));
        assertThat(r).isNotNull();
        assertThat(r.scenario(v1).outlierDetection().consecutive5xx()).isEqualTo(5);
        assertThat(r.scenario(v1).outlierDetection().maxEjectionPercent()).isEqualTo(10);
        assertThat(r.scenario(v2).outlierDetection().consecutive5xx()).isEqualTo(3);
        assertThat(r.scenario(v2).outlierDetection().maxEjectionPercent()).isEqualTo(50);
        assertThat(r.scenario(v2).outlierDetection().intervalNanos()).isEqualTo(5_000_000_000L);
        assertThat(r.scenario(own).outlierDetection().consecutive5xx()).isEqualTo(5);
        assertThat(r.said(v2)).contains("subset v2, from spec.subsets[1].trafficPolicy.outlierDetection");
        assertThat(r.said(v1)).endsWith("the rule's: the subset sets none of its own");
        for (String none : List.of(ratings, "PassthroughCluster")) {
            for (EjectionType t : EjectionType.values()) {
                assertThat(r.scenario(none).outlierDetection().enforcingPercent(t))
                        .as(none + " " + t)
                        .isZero();
            }
            assertThat(r.said(none)).contains("istiod gives it no outlier detection");
        }
        assertThat(r.advice(v2, null).patch().subset()).isEqualTo("v2");
    }

    @Test
    void aLogWithoutIstiosClusterNamesKeepsTheOneRule() throws IOException {
        IstioConfig rules = DestinationRuleReader.read(Files.readString(Path.of(RULE)), RULE, null);
        Scenario base = ScenarioReader.defaults(List.of()).scenario();
        assertThat(ClusterRules.of(rules, base, List.of(group("search"), group(""))))
                .isNull();
    }
}
