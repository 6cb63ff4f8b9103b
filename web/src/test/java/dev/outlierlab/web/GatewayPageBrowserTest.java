package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.scenario.GatewayComparisons;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.GatewayResultJson;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The gateway profile's view in a real headless Chromium ({@link BrowserLab}): the profile switch, the
 * section 7 presets against the simulator's own figures, shadow's virtual ejections, a shared link and
 * Export JSON read back by the CLI's scenario reader. Screenshots go to {@code target/screenshots/}.
 */
class GatewayPageBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static BrowserLab lab;

    @BeforeAll
    static void start() throws IOException {
        lab = BrowserLab.start();
    }

    @AfterAll
    static void stop() {
        BrowserLab.stop(lab);
    }

    @BeforeEach
    void desktop() {
        lab.viewport(new Dimension(1280, 800));
    }

    @Test
    void theProfileSwitchShowsTheGatewayViewWithItsDefaultsAndBack() throws Exception {
        open("");
        waitUntil("document.body.dataset.runs >= 1");
        assertThat(lab.driver.findElement(By.id("c-gw_mode")).isDisplayed()).isFalse();
        lab.driver.findElement(By.cssSelector("label:has(#profile-gateway)")).click();
        waitUntil("Number(document.body.dataset.gwRuns || 0) >= 1");
        assertThat(lab.driver.findElement(By.id("c-gw_mode")).isDisplayed()).isTrue();
        assertThat(lab.driver.findElement(By.id("events-table")).isDisplayed()).isFalse();
        JsonNode want = expected(GatewayScenario.defaults());
        assertThat(metric("ejections")).isEqualTo("7");
        assertThat(metric("failed-requests"))
                .isEqualTo(count(want.at("/summary/failed_requests").asLong()))
                .isEqualTo("98");
        assertRowsMatch(want);
        assertThat(hashScenario()).isEqualTo("{\"profile\":\"gateway\"}");
        // every control has a unit or choices and its one-line explanation
        for (WebElement hint : lab.driver.findElements(By.cssSelector("#gw-controls .hint"))) {
            assertThat(hint.getDomProperty("textContent")).isNotBlank();
        }
        assertThat(lab.driver
                        .findElement(By.cssSelector("label[for=c-gw_window]"))
                        .getText())
                .isEqualTo("Window (s)");
        assertThat(new Select(lab.driver.findElement(By.id("c-gw_mode")))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("prod");

        lab.driver.findElement(By.cssSelector("label:has(#profile-envoy)")).click();
        new WebDriverWait(lab.driver, Duration.ofSeconds(10))
                .until(d -> lab.driver.findElement(By.id("events-table")).isDisplayed());
        assertThat(lab.driver.getCurrentUrl()).doesNotContain("gateway");
        assertThat(lab.driver.findElement(By.id("c-gw_mode")).isDisplayed()).isFalse();
    }

    @Test
    void twoProvidersOneDeadIsEjectedByTheHardTripAt30007() throws Exception {
        open("#scenario=" + URLEncoder.encode("{\"profile\":\"gateway\"}", StandardCharsets.UTF_8));
        clickPreset("two-one-dead");
        JsonNode want = expected(preset("two-one-dead").scenario());
        assertThat(metric("ejections")).isEqualTo("7");
        assertThat(metric("failed-requests")).isEqualTo("21");
        assertRowsMatch(want);
        List<List<String>> rows = rows();
        assertThat(rows.get(0).subList(0, 5))
                .containsExactly("30.007 s", "azure", "0", "ejected", "consecutive failures");
        assertThat(rows.get(0).get(5))
                .isEqualTo("30.007 s: azure (process 0) 3 failures in a row "
                        + "(consecutive_failures 3) -> ejected until 60.007 s (30 s, no probe)");
        assertThat(lab.driver.findElement(By.id("gw-timeline-desc")).getText())
                .startsWith("azure ejected 30.007–60.007 s, 60.013–90.013 s, 90.02–120.02 s");
        assertThat(lab.driver.findElement(By.id("gw-notes")).getText())
                .contains(
                        "2 endpoints, peer_set all",
                        "sqrt(1) = 1.000 standard deviations",
                        "only the hard trip ejects");
        assertThat(lab.driver
                        .findElement(By.cssSelector("[data-gw-preset=two-one-dead]"))
                        .getDomAttribute("aria-pressed"))
                .isEqualTo("true");
        assertThat(lab.driver.findElements(By.cssSelector("#gw-chart-timeline canvas")))
                .isNotEmpty();
        lab.fullPageScreenshot("gateway-01-two-providers-one-dead");
    }

    @Test
    void shadowShowsVirtualEjectionsAndWouldEjectMarkers() throws Exception {
        open("#scenario=" + URLEncoder.encode("{\"profile\":\"gateway\"}", StandardCharsets.UTF_8));
        clickPreset("six-shadow");
        JsonNode want = expected(preset("six-shadow").scenario());
        assertRowsMatch(want);
        assertThat(lab.driver
                        .findElement(By.cssSelector("[data-metric=ejections] dt"))
                        .getText())
                .isEqualTo("Would-ejections");
        assertThat(metric("ejections")).isEqualTo("7");
        assertThat(metric("failed-requests")).isEqualTo("6,930");
        assertThat(rows().get(0).subList(0, 4)).containsExactly("32.66 s", "host-0", "0", "would eject");
        assertThat(lab.driver.findElement(By.id("gw-timeline-desc")).getText())
                .startsWith("host-0 virtually ejected 32.66–62.66 s");
        Object states =
                lab.js("return [...new Set(window.outlierLabGateway.result.timeline.map(i => i.state))].join();");
        assertThat(states).isEqualTo("virtual");
        assertThat(lab.driver.findElement(By.id("gw-story")).getText())
                .startsWith("Shadow: nothing was removed; prod would have ejected 7 times.");
        lab.screenshot("gateway-02-six-shadow");
        lab.viewport(new Dimension(390, 844));
        lab.js("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));");
        Object overflow = lab.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(((Number) overflow).intValue())
                .as("the gateway view is wider than a phone")
                .isLessThanOrEqualTo(0);
        lab.screenshot("gateway-03-six-shadow-phone");
    }

    @Test
    void aSharedLinkReopensTheSameGatewayScenario() throws Exception {
        open("#scenario=" + URLEncoder.encode("{\"profile\":\"gateway\"}", StandardCharsets.UTF_8));
        clickPreset("two-one-dead");
        int runs = gwRuns();
        new Select(lab.driver.findElement(By.id("c-gw_mode"))).selectByValue("shadow");
        waitForRunAfter(runs);
        setNumber("gw_consecutive_failures", "4");
        List<List<String>> table = rows();
        String link = lab.driver.getCurrentUrl();
        assertThat(hashScenario())
                .contains(
                        "\"profile\":\"gateway\"",
                        "\"mode\":\"shadow\"",
                        "\"consecutive_failures\":4",
                        "\"hosts\":[\"azure\",\"openai\"]");

        lab.driver.get("about:blank");
        lab.driver.get(link);
        waitUntil("document.body.dataset.ready === 'true' && Number(document.body.dataset.gwRuns || 0) >= 1");
        assertThat(lab.driver.findElement(By.id("profile-gateway")).isSelected())
                .isTrue();
        assertThat(new Select(lab.driver.findElement(By.id("c-gw_mode")))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("shadow");
        assertThat(lab.driver.findElement(By.id("c-gw_consecutive_failures")).getDomProperty("value"))
                .isEqualTo("4");
        assertThat(rows()).isEqualTo(table);
        GatewayScenario onPage = scenarioOnPage();
        assertThat(onPage.gateway().consecutiveFailures()).isEqualTo(4);
        JsonNode want = expected(onPage);
        assertRowsMatch(want);
        // four in a row at 100 %: the first would-eject one attempt later than three in a row
        assertThat(want.at("/events/0/action").asText()).isEqualTo("would_eject");
        assertThat(want.at("/events/0/time").asDouble()).isEqualTo(30.01);
    }

    @Test
    void exportJsonIsAFileThatRunAccepts() throws Exception {
        open("#scenario=" + URLEncoder.encode("{\"profile\":\"gateway\"}", StandardCharsets.UTF_8));
        clickPreset("two-one-dead");
        lab.clearDownloads();
        lab.driver.findElement(By.id("export")).click();
        Path file = lab.awaitDownload("outlier-lab-gateway-bookstore-search.json");
        String text = Files.readString(file);
        JsonNode doc = JSON.readTree(text);
        assertThat(doc.get("profile").asText()).isEqualTo("gateway");
        assertThat(doc.get("schema").asText()).isEqualTo("outlier-lab.lab-export.v1");
        assertThat(ExportSchema.errors(doc))
                .as("docs/schema/lab-export.v1.schema.json")
                .isEmpty();
        assertThat(doc.get("link").asText()).contains("#scenario=%7B%22profile%22%3A%22gateway%22");
        // the CLI's reader takes the file as it is (outlier-lab run FILE), and the run gives the page's figures
        ScenarioReader.Profiled read =
                ScenarioReader.readProfiled(text, file.getFileName().toString(), List.of());
        assertThat(read.name()).isEqualTo("gateway");
        assertThat(read.gateway()).isEqualTo(preset("two-one-dead").scenario());
        JsonNode rerun = expected(read.gateway());
        for (String key : List.of("summary", "events", "notes")) {
            assertSameJson(doc.get(key), rerun.get(key));
        }
        assertThat(doc.at("/summary/ejections/consecutive").asLong()).isEqualTo(7);
        assertThat(doc.at("/timeline/0/start").asDouble()).isEqualTo(30.006666666);
    }

    @Test
    void badGatewayInputShowsTheServersMessageAndTheLabRecovers() throws Exception {
        open("#scenario=" + URLEncoder.encode("{\"profile\":\"gateway\"}", StandardCharsets.UTF_8));
        int runs = gwRuns();
        new Select(lab.driver.findElement(By.id("c-gw_strategy"))).selectByValue("weighted");
        waitForRunAfter(runs);
        WebElement weights = lab.driver.findElement(By.id("c-gw_weights"));
        assertThat(weights.getDomProperty("value")).isEqualTo("1, 1, 1, 1, 1, 1");
        weights.clear();
        weights.sendKeys("3, 1", Keys.TAB);
        new WebDriverWait(lab.driver, Duration.ofSeconds(10))
                .until(d -> lab.driver.findElement(By.id("gw-error")).isDisplayed());
        assertThat(lab.driver.findElement(By.id("gw-error")).getText())
                .startsWith("request:")
                .contains("routing.weights", "one positive whole number per endpoint (6 endpoints, 2 weights)");
        // the server's message is also under the control it names, and the results are dimmed as not current
        assertThat(lab.driver
                        .findElement(By.cssSelector("[data-control=gw_weights] .field-msg"))
                        .getText())
                .contains("(6 endpoints, 2 weights)");
        assertThat(lab.js("return document.body.classList.contains('stale');")).isEqualTo(true);
        runs = gwRuns();
        weights.clear();
        weights.sendKeys("3, 1, 1, 1, 1, 1", Keys.TAB);
        waitForRunAfter(runs);
        assertThat(lab.driver.findElement(By.id("gw-error")).isDisplayed()).isFalse();
        assertThat(lab.driver.findElements(By.cssSelector(".field-msg"))).isEmpty();
        assertThat(scenarioOnPage().routing().weights()).containsExactly(3, 1, 1, 1, 1, 1);
    }

    private static GatewayComparisons.Comparison preset(String id) {
        return GatewayComparisons.all().stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static JsonNode expected(GatewayScenario s) throws IOException {
        return JSON.readTree(GatewayResultJson.toJson(GatewaySimulation.run(s)));
    }

    private static GatewayScenario scenarioOnPage() {
        Object scenario = lab.js("return JSON.stringify(window.outlierLabGateway.result.scenario);");
        return ScenarioReader.readProfiled((String) scenario, "page", List.of()).gateway();
    }

    /** Loads the page afresh (from another document, so that a hash-only change cannot reuse the last one). */
    private static void open(String hash) {
        lab.driver.get("about:blank");
        lab.driver.get(lab.server.uri() + hash);
        waitUntil("document.body.dataset.ready === 'true'");
        if (hash.contains("gateway")) {
            waitUntil("Number(document.body.dataset.gwRuns || 0) >= 1");
        }
    }

    private static void waitUntil(String condition) {
        new WebDriverWait(lab.driver, Duration.ofSeconds(30))
                .until(d -> Boolean.TRUE.equals(lab.js("return Boolean(" + condition + ");")));
    }

    private static int gwRuns() {
        return ((Number) lab.js("return Number(document.body.dataset.gwRuns || 0);")).intValue();
    }

    private static void waitForRunAfter(int runs) {
        new WebDriverWait(lab.driver, Duration.ofSeconds(30)).until(d -> gwRuns() > runs);
    }

    private static void clickPreset(String id) {
        int runs = gwRuns();
        lab.driver.findElement(By.cssSelector("[data-gw-preset=" + id + "]")).click();
        waitForRunAfter(runs);
    }

    private static void setNumber(String control, String value) {
        int runs = gwRuns();
        WebElement in = lab.driver.findElement(By.id("c-" + control));
        in.clear();
        in.sendKeys(value, Keys.TAB);
        waitForRunAfter(runs);
    }

    private static String metric(String key) {
        return lab.driver
                .findElement(By.cssSelector("#gw-metrics [data-metric='" + key + "'] dd"))
                .getText();
    }

    /** The scenario JSON the address carries. */
    private static String hashScenario() {
        String url = lab.driver.getCurrentUrl();
        return URLDecoder.decode(
                url.substring(url.indexOf("#scenario=") + "#scenario=".length()), StandardCharsets.UTF_8);
    }

    private static List<List<String>> rows() {
        @SuppressWarnings("unchecked")
        List<List<String>> rows =
                (List<List<String>>) lab.js("return [...document.querySelectorAll('#gw-events-table tbody tr.ev')]"
                        + ".map(r => [...r.cells].map(c => c.textContent));");
        return rows;
    }

    /** Each table row against the simulator's event: time, endpoint, process, and the CLI's explanation. */
    private static void assertRowsMatch(JsonNode want) {
        JsonNode events = want.get("events");
        List<List<String>> rows = rows();
        assertThat(rows).hasSize(Math.min(events.size(), 500));
        for (int i = 0; i < rows.size(); i++) {
            JsonNode e = events.get(i);
            List<String> row = rows.get(i);
            assertThat(Double.parseDouble(row.get(0).replace(" s", "")))
                    .isCloseTo(e.get("time").asDouble(), Offset.offset(0.0005));
            assertThat(row.get(1)).isEqualTo(e.get("endpoint").asText());
            assertThat(row.get(2)).isEqualTo(e.get("process").asText());
            assertThat(row.get(5)).isEqualTo(e.get("explanation").asText());
        }
    }

    /** Equal as JSON values: numbers compare by value (JavaScript writes 210.0 as 210). */
    private static void assertSameJson(JsonNode actual, JsonNode expected) {
        Comparator<JsonNode> numbersByValue = (a, b) ->
                a.isNumber() && b.isNumber() ? Double.compare(a.asDouble(), b.asDouble()) : a.equals(b) ? 0 : 1;
        assertThat(actual.equals(numbersByValue, expected))
                .as("%s%nequals%n%s", actual, expected)
                .isTrue();
    }

    private static String count(long n) {
        return String.format(Locale.US, "%,d", n);
    }
}
