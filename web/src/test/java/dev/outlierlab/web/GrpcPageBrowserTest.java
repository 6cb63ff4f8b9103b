package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.GrpcResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.grpc.GrpcProfile;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The gRPC profile and the comparison of profiles in a real headless Chromium ({@link BrowserLab}): choosing gRPC
 * runs the seed's default scenario under grpc-java's rules (host-0 out at 40, 90 and 170 s, back at 80, 160 and
 * 270 s, 990 failed calls), with its own controls, table, trace and link; "Compare" shows Envoy's 6,930 failed
 * requests and no ejection beside gRPC's 990 and the gateway's column, in one table.
 */
class GrpcPageBrowserTest extends LabPageBrowserFixture {

    private static JsonNode expectedGrpc(String scenarioJson) throws IOException {
        ScenarioReader.Profiled p = ScenarioReader.readProfiledWithoutAliases(scenarioJson, "test");
        GrpcSettings settings = p.grpc();
        return JSON.readTree(GrpcResultJson.toJson(
                new GrpcProfile(settings.config()).run(p.envoy().scenario(), RunOptions.DEFAULT), settings));
    }

    private static void chooseGrpc() {
        int before = runs();
        click("label:has(#profile-grpc)");
        waitForRunAfter(before);
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> "grpc"
                        .equals(js("return window.outlierLab.result && window.outlierLab.result.profile || '';")));
    }

    private static String hashScenario() {
        String url = driver.getCurrentUrl();
        int at = url.indexOf("#scenario=");
        return at < 0 ? "" : URLDecoder.decode(url.substring(at + "#scenario=".length()), StandardCharsets.UTF_8);
    }

    private static List<String> compareRow(String row) {
        @SuppressWarnings("unchecked")
        List<String> cells = (List<String>) js("return [...document.querySelectorAll('#compare-table tr[data-row=\""
                + row + "\"] td')].map(c => c.textContent);");
        return cells;
    }

    @Test
    void choosingGrpcRunsTheDefaultScenarioUnderGrpcJava() throws Exception {
        open("");
        assertThat(input("grpc_interval").isDisplayed()).isFalse();
        chooseGrpc();
        JsonNode want = expectedGrpc("{\"profile\": \"grpc\"}");
        assertThat(metric("ejections")).isEqualTo("3");
        assertThat(metric("failed-requests")).isEqualTo("990");
        assertThat(metric("detections")).isEqualTo("3");
        assertThat(driver.findElements(By.cssSelector("[data-metric=panic]"))).isEmpty();
        assertTableMatches(want);
        List<List<String>> rows = rows();
        assertThat(rows.stream()
                        .map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2))
                        .toList())
                .containsExactly(
                        "40 s host-0 ejected",
                        "80 s host-0 returned",
                        "90 s host-0 ejected",
                        "160 s host-0 returned",
                        "170 s host-0 ejected",
                        "270 s host-0 returned");
        assertThat(rows.get(0).get(5)).isEqualTo("0/6 = 0 % < 10 %");
        assertThat(rows.get(0).get(6)).isEqualTo("30 s (x1)");
        assertThat(text("#story"))
                .contains(
                        "3 ejections; the first: 40 s: host-0 succeeded 67.0 % < required 71.1 %",
                        "990 calls failed; 0.79 % of those made during the fault.",
                        "gRPC settings (java) from the scenario's grpc block.");
        // gRPC's own controls, Envoy's hidden; the link says grpc
        assertThat(input("grpc_interval").isDisplayed()).isTrue();
        assertThat(inputValue("grpc_interval")).isEqualTo("10");
        assertThat(inputValue("grpc_max_ejection_percent")).isEqualTo("10");
        assertThat(inputValue("grpc_stdev_factor")).isEqualTo("1900");
        // grpc-java maps Envoy's unset enforcing_failure_percentage to failure percentage on at 85 %
        assertThat(input("grpc_failure_percentage_on").isSelected()).isTrue();
        assertThat(inputValue("grpc_fp_threshold")).isEqualTo("85");
        assertThat(input("consecutive_5xx").isDisplayed()).isFalse();
        assertThat(input("clients").isDisplayed()).isFalse();
        assertThat(input("hosts").isDisplayed()).isTrue();
        assertThat(hashScenario()).isEqualTo("{\"profile\":\"grpc\"}");
        // the trace: the first step in gRPC's words, with every endpoint's rate against the required one
        click("#trace-start");
        assertThat(text("#trace-detail .step-sentence"))
                .isEqualTo(want.at("/events/0/explanation").asText());
        assertThat(driver.findElements(By.cssSelector("#trace-detail .bar-row")))
                .hasSize(6);
        assertThat(text("#trace-detail .bars-caption")).contains("threshold 71.1 %", "1.9 x stdev 12.3");
        assertThat(driver.findElements(By.cssSelector("#chart-sr canvas"))).isNotEmpty();
        assertNoHorizontalScroll();
        fullPageScreenshot("grpc-01-defaults");
        // Export JSON: the schema's profile grpc, and its inputs run again to the same events
        lab.clearDownloads();
        click("#export");
        JsonNode doc = JSON.readTree(Files.readString(lab.awaitDownload("outlier-lab-bookstore-search.json")));
        assertThat(ExportSchema.errors(doc))
                .as("docs/schema/lab-export.v1.schema.json")
                .isEmpty();
        assertThat(doc.get("profile").asText()).isEqualTo("grpc");
        assertThat(doc.at("/inputs/profile").asText()).isEqualTo("grpc");
        assertThat(expectedGrpc(JSON.writeValueAsString(doc.get("inputs"))).get("events"))
                .isEqualTo(want.get("events"));

        // back to Envoy: the same traffic, nothing ejected, 6,930 failed
        int before = runs();
        click("label:has(#profile-envoy)");
        waitForRunAfter(before);
        assertThat(metric("ejections")).isEqualTo("0");
        assertThat(metric("failed-requests")).isEqualTo("6,930");
        assertThat(input("grpc_interval").isDisplayed()).isFalse();
        assertThat(hashScenario()).isEmpty();
    }

    @Test
    void theComparisonShowsEnvoyGrpcAndTheGatewaySideBySide() throws Exception {
        open("#scenario=" + URLEncoder.encode("{\"profile\":\"grpc\"}", StandardCharsets.UTF_8));
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> "grpc"
                        .equals(js("return window.outlierLab.result && window.outlierLab.result.profile || '';")));
        assertThat(metric("failed-requests")).isEqualTo("990");
        click("label[for=compare-on]");
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> compareRow("failed-requests").size() == 6);
        @SuppressWarnings("unchecked")
        List<String> heads = (List<String>)
                js("return [...document.querySelectorAll('#compare-table thead th')]" + ".map(c => c.textContent);");
        assertThat(heads).containsExactly("", "envoy", "grpc (grpc-java)", "gateway", "nginx", "haproxy", "caddy");
        assertThat(compareRow("failed-requests").subList(0, 2)).containsExactly("6,930", "990");
        assertThat(compareRow("ejections").subList(0, 2)).containsExactly("0", "3");
        assertThat(compareRow("refused-by-the-cap").subList(0, 2)).containsExactly("21", "0");
        assertThat(compareRow("requests"))
                .containsExactly("180,000", "180,000", "180,000", "180,000", "180,000", "180,000");
        assertThat(compareRow("ejected-at").get(1)).isEqualTo("host-0 @ 40s, host-0 @ 90s, host-0 @ 170s");
        assertThat(compareRow("returned-at").get(1)).isEqualTo("host-0 @ 80s, host-0 @ 160s, host-0 @ 270s");
        assertThat(compareRow("ejected-at").get(0)).isEqualTo("–");
        assertThat(text("#compare-caption"))
                .contains(
                        "gRPC: java, from the scenario's grpc block",
                        "Gateway: the gateway profile's defaults",
                        "nginx: nginx's defaults",
                        "HAProxy: HAProxy's passive mode",
                        "Caddy: Caddy's passive health checks");
        fullPageScreenshot("grpc-02-compare");

        // a change re-runs the comparison: a cap of 0 stops grpc-java before its first candidate
        int before = runs();
        input("grpc_max_ejection_percent").clear();
        input("grpc_max_ejection_percent").sendKeys("0\t");
        waitForRunAfter(before);
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> compareRow("ejections").size() == 6
                        && compareRow("ejections").get(1).equals("0"));
        assertThat(metric("ejections")).isEqualTo("0");
        assertThat(compareRow("failed-requests").get(1)).isEqualTo("6,930");
        assertThat(hashScenario()).isEqualTo("{\"profile\":\"grpc\",\"grpc\":{\"max_ejection_percent\":0}}");
    }
}
