package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Tuning a DestinationRule's subset that has an outlierDetection of its own (payments' v2: consecutive5xxErrors 3,
 * interval 5s, maxEjectionPercent 50, beside the rule's 5, 10s, 10): the recommendation is spliced into the subset's
 * block, which istiod gives the subset's cluster, and the rule's own block (which v1 inherits) stays as it was; the
 * patch reaches into the subset, and the EnvoyFilter for what no field sets matches the subset's cluster.
 */
class SubsetTuneTest {
    private static final String RULE = "../docs/examples/payments-destination-rule.yaml";

    @Test
    void aSubsetsOwnBlockIsTheOneEdited() throws IOException {
        String text = Files.readString(Path.of(RULE));
        CheckTarget v2 = CheckInputs.read(text, RULE, null, false).targets().stream()
                .filter(t -> t.name().equals("payments/v2"))
                .findFirst()
                .orElseThrow();
        assertThat(v2.config().consecutive5xx()).isEqualTo(3);
        CurrentSettings current = new CurrentSettings(
                "payments/v2", RULE, EnvoyTarget.ISTIO, v2.config(), v2.panicThresholdPercent(), null, null, null);
        TuneRequest req = EnvoyRequests.fromFlags(current, 4, 300L, "../docs/examples/tune-suite.yaml", 1, 2);
        TuneResult r = TuneService.run(req, u -> {}, null, text, EnvoyTarget.ISTIO);
        assertThat(r.deployable().notDone()).isNull();
        String file = r.recommendedFile();
        // the rule's block, which v1 inherits, is untouched
        assertThat(file)
                .contains("    outlierDetection:\n"
                        + "      consecutive5xxErrors: 5\n"
                        + "      interval: 10s\n"
                        + "      baseEjectionTime: 30s\n"
                        + "      maxEjectionPercent: 10\n"
                        + "  subsets:\n");
        // v2's own block carries the recommendation
        String v2Block = file.substring(file.indexOf("  - name: v2"));
        assertThat(v2Block).doesNotContain("maxEjectionPercent: 50");
        assertThat(r.diff()).contains("-        maxEjectionPercent: 50");
        assertThat(r.deployable().patch())
                .startsWith("kubectl patch destinationrule payments -n shop --type json -p "
                        + "'[{\"op\":\"add\",\"path\":\"/spec/subsets/1/trafficPolicy/outlierDetection/");
        String out = TuneText.render(r);
        assertThat(out).contains("An EnvoyFilter can set them on the cluster istiod makes for the rule's subset v2");
        assertThat(out).contains("            service: payments.shop.svc.cluster.local\n" + "            subset: v2\n");
    }
}
