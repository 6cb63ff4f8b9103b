package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code tune}'s why, notes, detectors and check lines for an Istio, Envoy Gateway or Kuma target name the
 * resource's own fields, and where no field of the resource can turn a detector on they say so with the patch that
 * can; no Envoy field that has a name in the resource leaks into the text or the JSON.
 */
class TuneWordsTest {
    private static final String SUITE = "../docs/examples/tune-suite.yaml";

    /** Envoy's names for fields a DestinationRule sets under names of its own. */
    private static final List<String> ENVOY_NAMES_ISTIO_HAS = List.of(
            "max_ejection_percent",
            "consecutive_5xx",
            "consecutive_gateway_failure",
            "enforcing_consecutive_gateway_failure",
            "enforcing_consecutive_5xx",
            "base_ejection_time",
            "healthy_panic_threshold");

    @Test
    void istioRuleWithSubsetsIsToldInDestinationRuleFields() throws IOException {
        String text = Files.readString(Path.of("src/test/resources/istio/reviews-subsets.yaml"));
        CurrentSettings current = CurrentSettings.read(text, "reviews-subsets.yaml");
        assertThat(current.target()).isEqualTo(EnvoyTarget.ISTIO);
        TuneResult r = tune(current, text);
        String out = TuneText.render(r);
        String beforePatch = out.substring(0, out.indexOf("What an Istio DestinationRule cannot set:"));
        String why = out.substring(out.indexOf("Why: "), out.indexOf("Breaks when"));
        // the current rule's cap of 10 admits no host of 6: the recommendation raises it, in the rule's own field
        assertThat(why)
                .contains("raises trafficPolicy.outlierDetection.maxEjectionPercent from 10 to 17, which admits 1 of 6"
                        + " hosts at once");
        assertThat(out)
                .contains("success rate never ejects: it needs enforcing_success_rate above 0, which no "
                        + "DestinationRule field sets (istiod always writes 0)")
                .contains("failure percentage never ejects: it needs enforcing_failure_percentage above 0 and a "
                        + "failure_percentage_threshold, which no DestinationRule field sets")
                .contains("warning cap-admits-no-host: trafficPolicy.outlierDetection.maxEjectionPercent 10 admits no"
                        + " host of 6")
                .containsPattern("note consecutive-5xx-misses-partial-failure: "
                        + "trafficPolicy\\.outlierDetection\\.consecutive5xxErrors (\\d+) needs \\1 failures in a row");
        // the EnvoyFilter matches the user's rule: its name, namespace and host
        assertThat(out)
                .contains("What an Istio DestinationRule cannot set:\n"
                        + "  No DestinationRule field turns on a detector that compares hosts; with 500 requests a "
                        + "host per interval from the caller these could judge them:")
                .contains("    apiVersion: networking.istio.io/v1alpha3\n"
                        + "    kind: EnvoyFilter\n"
                        + "    metadata:\n"
                        + "      name: reviews-outlier-detection\n"
                        + "      namespace: default\n")
                .contains("          service: reviews.default.svc.cluster.local\n")
                .contains("            outlier_detection:\n" + "              enforcing_success_rate: 100\n")
                .contains("or set always_eject_one_host (which no DestinationRule field sets)");
        for (String envoy : ENVOY_NAMES_ISTIO_HAS) {
            assertThat(beforePatch).as(envoy).doesNotContainPattern("(?<![\\w.])" + envoy + "(?!\\w)");
        }
        String jsonText = TuneJson.write(r);
        JsonNode json = new ObjectMapper().readTree(jsonText);
        assertThat(json.get("why").asText())
                .contains("raises trafficPolicy.outlierDetection.maxEjectionPercent from 10 to 17");
        // breaks_when: every condition run with its runs, percentages as plain numbers (30, 0.5; never 3E+1)
        JsonNode outages = json.get("breaks_when").get("shared_outage_runs");
        assertThat(outages).hasSize(r.breaks().outageRuns().size());
        for (int i = 0; i < outages.size(); i++) {
            ProbeTally t = r.breaks().outageRuns().get(i);
            assertThat(outages.get(i).get("percent").isIntegralNumber()).isTrue();
            assertThat(outages.get(i).get("percent").asLong()).isEqualTo(t.level());
            assertThat(outages.get(i).get("runs").asInt()).isEqualTo(t.runs());
            assertThat(outages.get(i).get("ejecting").asInt()).isEqualTo(t.hits());
        }
        assertThat(json.get("breaks_when")
                        .get("noise_runs")
                        .get(0)
                        .get("percent")
                        .asDouble())
                .isEqualTo(0.5);
        assertThat(json.get("breaks_when").get("edge_seeds")).hasSize(17);
        assertThat(json.get("breaks_when").toString()).doesNotContain("E+");
        assertThat(json.get("cannot_set").get("patch").asText()).contains("enforcing_success_rate: 100");
        List<String> said = new ArrayList<>();
        said.add(json.get("why").asText());
        json.get("detectors").forEach(d -> said.add(d.asText()));
        json.get("recommended").get("check").forEach(d -> said.add(d.asText()));
        json.get("current").get("violations").forEach(d -> said.add(d.asText()));
        json.get("request").get("notes").forEach(d -> said.add(d.asText()));
        assertThat(String.join("\n", said))
                .containsPattern(
                        "trafficPolicy\\.outlierDetection\\.consecutive5xxErrors (\\d+) needs \\1 failures in a row")
                .contains("cap-admits-no-host: trafficPolicy.outlierDetection.maxEjectionPercent 10");
        for (String envoy : ENVOY_NAMES_ISTIO_HAS) {
            assertThat(String.join("\n", said)).as(envoy).doesNotContainPattern("(?<![\\w.])" + envoy + "(?!\\w)");
        }
    }

    @Test
    void envoyGatewayIsToldInBackendTrafficPolicyFields() throws IOException {
        CurrentSettings current = CurrentSettings.defaults("backend", EnvoyTarget.ENVOY_GATEWAY, 6);
        TuneResult r = tune(current, null);
        String out = TuneText.render(r);
        String why = out.substring(out.indexOf("Why: "), out.indexOf("Breaks when"));
        assertThat(why).contains("spec.healthCheck.passive.maxEjectionPercent from 10 to 17");
        assertThat(out).contains("warning cap-admits-no-host: spec.healthCheck.passive.maxEjectionPercent 10");
        assertThat(out).doesNotContainPattern("(?<![\\w.])max_ejection_percent(?!\\w)");
        assertThat(out).doesNotContainPattern("(?<![\\w.])consecutive_5xx(?!\\w)");
        JsonNode json = new ObjectMapper().readTree(TuneJson.write(r));
        assertThat(json.get("why").asText()).contains("spec.healthCheck.passive.maxEjectionPercent from 10 to 17");
    }

    @Test
    void kumaIsToldInMeshCircuitBreakerFields() throws IOException {
        CurrentSettings current = CurrentSettings.defaults("backend", EnvoyTarget.KUMA, 6);
        TuneResult r = tune(current, null);
        String out = TuneText.render(r);
        String why = out.substring(out.indexOf("Why: "), out.indexOf("Breaks when"));
        assertThat(why).contains("default.outlierDetection.maxEjectionPercent from 10 to 17");
        assertThat(out).doesNotContainPattern("(?<![\\w.])max_ejection_percent(?!\\w)");
        assertThat(out).doesNotContainPattern("(?<![\\w.])consecutive_5xx(?!\\w)");
        assertThat(out).doesNotContainPattern("(?<![\\w.])success_rate_request_volume(?!\\w)");
        JsonNode json = new ObjectMapper().readTree(TuneJson.write(r));
        assertThat(json.get("why").asText()).contains("default.outlierDetection.maxEjectionPercent from 10 to 17");
    }

    private static TuneResult tune(CurrentSettings current, String fromText) {
        TuneRequest req = EnvoyRequests.fromFlags(current, 6, 300L, SUITE, 1, 2);
        return TuneService.run(req, u -> {}, null, fromText, current.target());
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }
}
