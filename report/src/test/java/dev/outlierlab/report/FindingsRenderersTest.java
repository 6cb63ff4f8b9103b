package dev.outlierlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.CheckRule;
import dev.outlierlab.check.CheckTargets;
import dev.outlierlab.check.Rule;
import org.junit.jupiter.api.Test;

class FindingsRenderersTest {
    private static final String CLUSTER = """
            name: search
            type: STATIC
            connect_timeout: 1s
            load_assignment:
              cluster_name: search
              endpoints:
              - lb_endpoints:
                - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
            outlier_detection:
              consecutive_5xx: 5
            """;

    private static final String RULE = """
            apiVersion: networking.istio.io/v1
            kind: DestinationRule
            metadata: {name: reviews}
            spec:
              host: reviews
              trafficPolicy:
                outlierDetection:
                  consecutive5xxErrors: 7
                  maxEjectionPercent: 0
            """;

    private static CheckReport report(String text, String file, Integer hosts) {
        return CheckReport.of(file, CheckTargets.read(text, file, null), hosts, null);
    }

    @Test
    void sarifHasVersionSchemaRulesAndLocatedResults() {
        JsonNode sarif = SarifReport.toTree(report(CLUSTER, "deploy/envoy/search cluster.yaml", null));
        assertThat(sarif.get("version").asText()).isEqualTo("2.1.0");
        assertThat(sarif.get("$schema").asText()).isEqualTo("https://json.schemastore.org/sarif-2.1.0.json");
        JsonNode run = sarif.get("runs").get(0);
        JsonNode driver = run.get("tool").get("driver");
        assertThat(driver.get("name").asText()).isEqualTo("outlier-lab");
        assertThat(driver.get("rules")).hasSize(CheckRule.lab().size());
        assertThat(driver.get("rules")
                        .get(Rule.CAP_ADMITS_NO_HOST.ordinal())
                        .get("id")
                        .asText())
                .isEqualTo("cap-admits-no-host");
        JsonNode first = run.get("results").get(0);
        assertThat(first.get("ruleId").asText()).isEqualTo("cap-admits-no-host");
        assertThat(first.get("ruleIndex").asInt()).isEqualTo(Rule.CAP_ADMITS_NO_HOST.ordinal());
        // Envoy's default cap with consecutive_5xx configured, on 3 hosts: a warning (docs/check.md, Severities)
        assertThat(first.get("level").asText()).isEqualTo("warning");
        assertThat(first.get("message").get("text").asText())
                .startsWith("[search] max_ejection_percent 10 admits no host of 3")
                .contains("Suggested fix:\noutlier_detection:\n  max_ejection_percent: 34");
        JsonNode location = first.get("locations").get(0).get("physicalLocation");
        assertThat(location.get("artifactLocation").get("uri").asText())
                .isEqualTo("deploy/envoy/search%20cluster.yaml");
        assertThat(location.get("region").get("startLine").asInt()).isEqualTo(11);
        assertThat(first.get("properties")
                        .get("numbers")
                        .get("smallest_percent_admitting_one_host")
                        .asLong())
                .isEqualTo(34);
    }

    @Test
    void absolutePathsBecomeFileUris() {
        assertThat(SarifReport.uri("/etc/envoy/envoy.yaml")).isEqualTo("file:///etc/envoy/envoy.yaml");
    }

    @Test
    void jsonListsClustersAndFindings() {
        JsonNode json = FindingsJson.toTree(report(RULE, "dr.yaml", 6));
        assertThat(json.get("hosts").asInt()).isEqualTo(6);
        // maxEjectionPercent: 0 becomes Envoy's default cap (istio-translation says so), a warning at 6 hosts
        assertThat(json.get("summary").get("errors").asInt()).isZero();
        assertThat(json.get("summary").get("warnings").asInt()).isEqualTo(2);
        assertThat(json.get("files").get(0).get("path").asText()).isEqualTo("dr.yaml");
        assertThat(json.get("files").get(0).get("read").asBoolean()).isTrue();
        JsonNode cluster = json.get("clusters").get(0);
        assertThat(cluster.get("name").asText()).isEqualTo("reviews");
        assertThat(cluster.get("outlier_detection").get("max_ejection_percent").asInt())
                .isEqualTo(10);
        assertThat(cluster.get("healthy_panic_threshold").asDouble()).isEqualTo(0.0);
        assertThat(cluster.get("translation").get(0).get("from").asText()).isEqualTo("consecutive5xxErrors: 7");
        JsonNode ids = json.get("findings");
        assertThat(ids.get(0).get("id").asText()).isEqualTo("istio-translation");
        assertThat(ids.get(1).get("id").asText()).isEqualTo("cap-admits-no-host");
        assertThat(ids.get(1).get("fix").asText())
                .startsWith("trafficPolicy:\n  outlierDetection:\n    maxEjectionPercent: 17");
    }

    @Test
    void textShowsTranslationFindingsNumbersAndFix() {
        String text = FindingsText.render(report(RULE, "dr.yaml", 6));
        assertThat(text)
                .startsWith("outlier-lab check dr.yaml: 1 cluster (6 hosts)\n\nreviews  dr.yaml:7\n")
                .contains("  translated by istiod (other fields: Envoy defaults):\n")
                .contains("    outlier_detection.consecutive_5xx = 7")
                .contains("<- Istio always sets 0: success-rate ejection off")
                .contains("  warning cap-admits-no-host (line 7)\n")
                .contains("          numbers: hosts 6, max_ejection_percent 10, percent_if_one_ejected 16.67")
                .contains("          fix:\n            trafficPolicy:\n              outlierDetection:\n"
                        + "                maxEjectionPercent: 17   # admits 1 of 6 hosts; 34 admits 2\n")
                .contains("  note    istio-locality-failover (line 7)\n")
                // the rule has outlierDetection: istiod's locality failover and its default retries are two notes
                .endsWith("0 errors, 2 warnings, 3 notes\n");
    }
}
