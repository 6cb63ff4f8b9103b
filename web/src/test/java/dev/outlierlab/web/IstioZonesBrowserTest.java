package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The Istio mode's per-zone view in a real Chromium: a DestinationRule with {@code outlierDetection}, six pods in
 * three zones and every caller in zone a, one pod of zone a refusing connections. The page applies what istiod
 * sends (least request, two default retries, locality failover by the caller's zone) and shows, for the callers of
 * zone a, Envoy's priority arithmetic with host-0 ejected ({@code LoadBalancerBase::recalculatePerPriorityState}:
 * P0's availability 140 x 1/2 = 70 %, the other 30 % spilling to P1's four pods, 7.5 % each), the attempts per zone,
 * and the upstream attempts beside the requests that failed for the callers; every figure is the one
 * {@code outlier-lab run three-zones.yaml --istio reviews-destination-rule.yaml --hosts 6} prints.
 */
class IstioZonesBrowserTest extends LabPageBrowserFixture {
    static final Path RULE = Path.of("../docs/examples/reviews-destination-rule.yaml");
    static final Path SCENARIO = Path.of("../docs/examples/three-zones.yaml");

    @Test
    void theCallersZoneSharesAfterAnEjectionAreEnvoysPriorityArithmetic() throws Exception {
        // what run --istio prints for the same input: the scenario with the rule's cluster, 6 pods
        String rule = Files.readString(RULE);
        String scenarioText = Files.readString(SCENARIO);
        Scenario base = ScenarioReader.read(scenarioText, SCENARIO.toString(), List.of())
                .scenario();
        IstioPolicy policy = DestinationRuleReader.read(rule, RULE.toString(), null)
                .policies()
                .get(0);
        RunResult want = Simulation.run(policy.toScenario(base, 6), RunOptions.DEFAULT);
        String text = TextReport.render(want, 0, null);
        JsonNode wantJson = JSON.readTree(ResultJson.toJson(want, false));

        // the page with the same scenario, then the rule with the pods' and the callers' zones
        String hash = JSON.writeValueAsString(ScenarioWriter.toMap(base));
        open("#scenario=" + URLEncoder.encode(hash, StandardCharsets.UTF_8).replace("+", "%20"));
        js("document.getElementById('istio-rule').value = arguments[0];", rule);
        setText("istio-hosts", "6");
        click("#istio-routing-details summary");
        setText("istio-zones", "a, a, b, b, c, c");
        setText("istio-caller-zones", "a");
        int before = runs();
        click("#istio-use");
        waitForRunAfter(before);
        assertThat(text("#istio-status"))
                .contains("istiod's routing: least request; retries 2 retries on")
                .contains("locality failover on");

        // Envoy's priority arithmetic for the callers of zone a, host-0 ejected
        assertThat(share("a", "host-0")).isEqualTo("ejected");
        assertThat(share("a", "host-1")).isEqualTo("70.0 %");
        for (String h : List.of("host-2", "host-3", "host-4", "host-5")) {
            assertThat(share("a", h)).isEqualTo("7.5 %");
        }
        assertThat(cell("a", "host-1", 3)).isEqualTo("a");
        assertThat(cell("a", "host-1", 4)).isEqualTo("P0");
        assertThat(cell("a", "host-1", 5)).isEqualTo("70 %");
        assertThat(cell("a", "host-4", 3)).isEqualTo("c");
        assertThat(cell("a", "host-4", 4)).isEqualTo("P1");
        assertThat(cell("a", "host-4", 5)).isEqualTo("30 %");
        String shownLine = text("#routing-lines li[data-caller-zone='a']");
        assertThat(shownLine)
                .isEqualTo("callers in a: with host-0 ejected: P0 70 %, P1 30 %, so host-1 70.0 %, 4 hosts 7.5 % each"
                        + " (healthy share x overprovisioning factor 140 %, the rest spills to the next priority)");
        assertThat(text).contains(shownLine.substring("callers in a: ".length()));

        // upstream attempts (what the detectors see) beside the callers' failures, as run's JSON gives them
        JsonNode summary = wantJson.get("summary");
        long attempts = summary.get("upstream_attempts").asLong();
        long upstreamFailed = summary.get("upstream_failed").asLong();
        long callerFailed = summary.get("failed").asLong();
        assertThat(upstreamFailed).isPositive();
        assertThat(callerFailed).isLessThan(upstreamFailed);
        WebElement upstream = driver.findElement(By.id("routing-upstream"));
        assertThat(upstream.getDomAttribute("data-upstream-attempts")).isEqualTo(Long.toString(attempts));
        assertThat(upstream.getDomAttribute("data-upstream-failed")).isEqualTo(Long.toString(upstreamFailed));
        assertThat(upstream.getDomAttribute("data-caller-failed")).isEqualTo(Long.toString(callerFailed));
        assertThat(upstream.getText())
                .contains(count(attempts) + " attempts to hosts, " + count(upstreamFailed) + " failed")
                .contains(count(summary.get("retries").asLong()) + " retries")
                .contains(count(callerFailed) + " of "
                        + count(summary.get("requests").asLong()) + " requests failed");
        assertThat(text).contains(count(attempts) + " attempts to hosts, " + count(upstreamFailed) + " failed");

        js("document.getElementById('routing').scrollIntoView();");
        screenshot("istio-zones");
        // the run's attempts by the hosts' zone, as the text report's zones line gives them
        for (String zone : List.of("a", "b", "c")) {
            String pct = driver.findElement(
                            By.cssSelector("#routing-zones tr[data-zone='" + zone + "'] td:nth-child(3)"))
                    .getText();
            assertThat(text).contains(zone + " " + pct);
        }
        assertThat(text).contains("zones         attempts by the hosts' zone: a 77.6 %");
        assertThat(driver.findElement(By.cssSelector("#routing-zones tr[data-zone='a'] td:nth-child(3)"))
                        .getText())
                .isEqualTo("77.6 %");
    }

    private static void setText(String id, String value) {
        WebElement f = driver.findElement(By.id(id));
        f.clear();
        f.sendKeys(value, Keys.TAB);
    }

    private static String cell(String zone, String host, int column) {
        return driver.findElement(By.cssSelector("#routing-shares tr[data-caller-zone='" + zone + "'][data-host='"
                        + host + "'] td:nth-child(" + column + ")"))
                .getText();
    }

    private static String share(String zone, String host) {
        return cell(zone, host, 6);
    }
}
