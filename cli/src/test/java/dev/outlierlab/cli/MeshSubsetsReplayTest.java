package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * A sidecar's log with three Envoy clusters (docs/examples/replay/mesh-subsets: payments' subsets v1 and v2, four
 * pods each, the second pod of each failing every request from 20 s to 32 s and from 60 s to 72 s; and ratings,
 * which no rule covers), replayed with the payments DestinationRule and no {@code --cluster}: each cluster gets the
 * rule and subset istiod would apply. v1 inherits the rule's outlierDetection (consecutive5xxErrors 5,
 * maxEjectionPercent 10: no pod of four may go), v2 has its own (3 and 50: the failing pod goes twice), ratings none.
 */
class MeshSubsetsReplayTest {
    static final String LOG = "../docs/examples/replay/mesh-subsets/frontend-6f7c9-pqrst.log";
    static final String RULE = "../docs/examples/payments-destination-rule.yaml";

    @Test
    void eachClusterGetsItsSubsetsSettings() {
        CliRunner.Outcome o = CliRunner.run("replay", LOG, "--istio", RULE);
        assertThat(o.exit()).as(o.err()).isZero();
        String out = o.out();
        String v1 = section(out, "outbound|8080|v1|payments.shop.svc.cluster.local");
        String v2 = section(out, "outbound|8080|v2|payments.shop.svc.cluster.local");
        String ratings = section(out, "outbound|9080||ratings.shop.svc.cluster.local");
        assertThat(v1)
                .contains("settings: DestinationRule payments, subset v1, from spec.trafficPolicy.outlierDetection ("
                        + RULE + ":15), the rule's: the subset sets none of its own")
                .contains("consecutive_5xx 5*, interval 10s*, base_ejection_time 30s*, max_ejection_percent 10*")
                .contains("ejections     0")
                .contains("cap refused   8")
                .containsPattern("10\\.0\\.4\\.12:8080 +90 +24 +26\\.67");
        assertThat(v2)
                .contains("settings: DestinationRule payments, subset v2, from "
                        + "spec.subsets[1].trafficPolicy.outlierDetection (" + RULE + ":28)")
                .contains("consecutive_5xx 3*, interval 5s*, base_ejection_time 30s*, max_ejection_percent 50*")
                .contains("2 x 10:00:22.339 (22.330 s), 10:01:02.339 (62.330 s) 10.0.3.12:8080 eject");
        assertThat(ratings)
                .contains("no DestinationRule of " + RULE + " covers outbound|9080||ratings.shop.svc.cluster.local: "
                        + "istiod gives it no outlier detection, so nothing is ejected there")
                .contains("settings of no outlier detection")
                .contains("ejections     0");
        assertThat(out)
                .contains("== total across 3 detectors (1 proxy, 3 clusters) ==")
                .doesNotContain("host-0");
    }

    @Test
    void compareSetChangesEachClustersOwnSettings() {
        // a cap of 25 admits one pod of four: v1 (the rule's 10) now ejects; v2 (its own 50) decides as before, as
        // the second settings are v2's own block with the cap changed, not the rule's
        CliRunner.Outcome o = CliRunner.run(
                "replay", LOG, "--istio", RULE, "--compare-set", "outlier_detection.max_ejection_percent=25");
        assertThat(o.exit()).as(o.err()).isZero();
        String v1 = section(o.out(), "outbound|8080|v1|payments.shop.svc.cluster.local");
        String v2 = section(o.out(), "outbound|8080|v2|payments.shop.svc.cluster.local");
        assertThat(v1).containsPattern("\n  ejections +0 +2\n");
        assertThat(v2)
                .containsPattern("\n  ejections +2 +2\n")
                .contains("none: both settings make the same decisions at the same times");
    }

    @Test
    void theJsonSaysEachClustersRule() throws Exception {
        CliRunner.Outcome o = CliRunner.run("replay", LOG, "--istio", RULE, "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(o.out());
        StringBuilder said = new StringBuilder();
        root.findValues("settings").forEach(n -> said.append(n.asText()).append('\n'));
        assertThat(said.toString())
                .contains("settings: DestinationRule payments, subset v2, from spec.subsets[1]")
                .contains("no DestinationRule of " + RULE + " covers outbound|9080||ratings");
    }

    private static String section(String out, String cluster) {
        int from = out.indexOf("== cluster " + cluster);
        assertThat(from).as(cluster).isNotNegative();
        int to = out.indexOf("\n== ", from + 1);
        return out.substring(from, to < 0 ? out.length() : to);
    }
}
