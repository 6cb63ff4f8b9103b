package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A DestinationRule's user reads the verdict's fix in the rule's own fields ({@code run --istio}, {@code sweep
 * --istio}), is told plainly what no field of the rule can set and given the EnvoyFilter that can, and may
 * {@code --set} Istio's names.
 */
class IstioAdviceCommandTest {
    static final String RULE = "../docs/examples/payments-destination-rule.yaml";

    @Test
    void capFixNamesTheRulesField() {
        CliRunner.Outcome o = CliRunner.run("run", "--istio", RULE, "--hosts", "8");
        assertThat(o.exit()).as(o.err()).isZero();
        String fix = line(o.out(), "  fix ");
        assertThat(fix)
                .contains("trafficPolicy.outlierDetection.maxEjectionPercent 13 (the smallest that admits one"
                        + " host of 8)")
                .contains("always_eject_one_host true, which no DestinationRule field sets")
                .doesNotContain("max_ejection_percent");
    }

    @Test
    void theVerdictNamesTheRulesFieldsToo() {
        CliRunner.Outcome o = CliRunner.run("run", "--istio", RULE, "--hosts", "8");
        assertThat(line(o.out(), "  verdict "))
                .contains("trafficPolicy.outlierDetection.maxEjectionPercent 10 admits no host of 8")
                .doesNotContain("max_ejection_percent");
        // random failures with consecutive5xxErrors off: the gateway-error detector runs unenforced
        CliRunner.Outcome g = CliRunner.run(
                "run",
                "--istio",
                RULE,
                "--hosts",
                "8",
                "--set",
                "faults[0].error_rate=20",
                "--set",
                "faults[0].pattern=random",
                "--set",
                "consecutive5xxErrors=0",
                "--set",
                "maxEjectionPercent=13");
        assertThat(g.exit()).as(g.err()).isZero();
        assertThat(line(g.out(), "  verdict "))
                .contains("none enforced: trafficPolicy.outlierDetection.consecutiveGatewayErrors 0 or unset (istiod"
                        + " enforces it only above 0)")
                .doesNotContain("enforcing_consecutive_gateway_failure");
    }

    @Test
    void successRateFixSaysNoFieldCanAndGivesTheEnvoyFilter() {
        CliRunner.Outcome o = CliRunner.run("run", "--istio", RULE, "--hosts", "8", "--set", "maxEjectionPercent=13");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(line(o.out(), "  fix "))
                .contains("enforcing_success_rate 100, which no DestinationRule field sets"
                        + " (istiod always writes 0)");
        assertThat(o.out())
                .contains(
                        "kind: EnvoyFilter",
                        "service: payments.shop.svc.cluster.local",
                        "operation: MERGE",
                        "enforcing_success_rate: 100",
                        "namespace: shop");
        // the subset's cluster gets a patch matching the subset
        CliRunner.Outcome v2 = CliRunner.run(
                "run", "--istio", RULE, "--subset", "v2", "--hosts", "8", "--set", "maxEjectionPercent=13");
        assertThat(v2.out()).contains("subset: v2", "name: payments-v2-outlier-detection");
    }

    @Test
    void gatewayErrorsFixIsConsecutiveGatewayErrors() {
        CliRunner.Outcome o = CliRunner.run(
                "run",
                "--istio",
                RULE,
                "--hosts",
                "8",
                "--set",
                "maxEjectionPercent=13",
                "--set",
                "faults[0].pattern=random",
                "--set",
                "consecutive5xxErrors=1000");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(line(o.out(), "  fix "))
                .contains("trafficPolicy.outlierDetection.consecutiveGatewayErrors 5 (above"
                        + " 0, so istiod enforces it: 100)")
                .doesNotContain("set enforcing_consecutive_gateway_failure");
    }

    @Test
    void envoyInputsKeepEnvoysNames() {
        CliRunner.Outcome o =
                CliRunner.run("run", "--set", "outlier_detection.max_ejection_percent=10", "--hosts", "8");
        assertThat(line(o.out(), "  fix "))
                .contains("max_ejection_percent 13 (the smallest that admits one host of 8),"
                        + " or always_eject_one_host true");
    }

    @Test
    void setTakesIstiosNamesUnderIstio() {
        CliRunner.Outcome o = CliRunner.run(
                "run",
                "--istio",
                RULE,
                "--hosts",
                "8",
                "--set",
                "consecutive5xxErrors=3",
                "--set",
                "outlierDetection.baseEjectionTime=15m",
                "--set",
                "trafficPolicy.outlierDetection.minHealthPercent=50",
                "--format",
                "json");
        assertThat(o.exit()).as(o.err()).isZero();
        var s = o.json().get("scenario");
        assertThat(s.get("outlier_detection").get("consecutive_5xx").asInt()).isEqualTo(3);
        assertThat(s.get("outlier_detection").get("base_ejection_time").asText())
                .isEqualTo("900s");
        assertThat(s.get("cluster").get("panic_threshold").asInt()).isEqualTo(50);
        // istiod's rule: 0 leaves Envoy's default 10
        CliRunner.Outcome zero = CliRunner.run(
                "run", "--istio", RULE, "--hosts", "8", "--set", "maxEjectionPercent=0", "--format", "json");
        assertThat(zero.json()
                        .get("scenario")
                        .get("outlier_detection")
                        .get("max_ejection_percent")
                        .asInt())
                .isEqualTo(10);
    }

    @Test
    void didYouMeanCrossesTheVocabularies() {
        CliRunner.run("run", "--set", "outlier_detection.consecutive5xxErrors=3")
                .assertRejected("did you mean 'outlier_detection.consecutive_5xx'? It is Envoy's name for Istio's "
                        + "consecutive5xxErrors");
        CliRunner.run("run", "--istio", RULE, "--hosts", "8", "--set", "outlierDetection.consecutive5xxError=3")
                .assertRejected("did you mean consecutive5xxErrors?");
        CliRunner.run("run", "--set", "outlier_detection.consecutive_5x=3")
                .assertRejected("did you mean 'consecutive_5xx'?");
    }

    @Test
    void sweepVariesIstiosNames() {
        CliRunner.Outcome o =
                CliRunner.run("sweep", "--istio", RULE, "--hosts", "8", "--vary", "maxEjectionPercent=10,13");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).startsWith("maxEjectionPercent ");
        String[] rows = o.out().split("\n");
        assertThat(rows[1].trim().split(" +")[2]).isEqualTo("0");
        assertThat(rows[2].trim().split(" +")[4]).isEqualTo("21");
    }

    static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
    }
}
