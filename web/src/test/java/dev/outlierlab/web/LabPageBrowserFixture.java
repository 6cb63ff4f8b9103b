package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The lab page in a real headless Chromium, for the {@code LabPage*BrowserTest} classes that extend this one:
 * one {@link BrowserLab} (a lab server on a loopback port and Debian's chromium and chromium-driver, paths set
 * explicitly so Selenium Manager never downloads anything) started before a class's first test and closed after its
 * last, as each browser test class did before; the window's viewport set to a desktop size before each test; and the
 * steps and assertions they share: opening the page and waiting for a run, reading the controls, the table and the
 * metrics, and comparing them with the simulator's own figures. Screenshots go to {@code target/screenshots/}.
 */
abstract class LabPageBrowserFixture {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Dimension DESKTOP = new Dimension(1280, 800);
    static final Dimension PHONE = new Dimension(390, 844);

    static BrowserLab lab;
    static LabServer server;
    static ChromeDriver driver;

    @BeforeAll
    static void start() throws IOException {
        lab = BrowserLab.start();
        server = lab.server;
        driver = lab.driver;
    }

    @AfterAll
    static void stop() {
        BrowserLab.stop(lab);
    }

    @BeforeEach
    void desktop() {
        viewport(DESKTOP);
    }

    // ---- shared steps and assertions -------------------------------------------------------------------

    static Scenario cap34() {
        Scenario s = Scenario.defaults();
        return s.withOutlierDetection(s.outlierDetection().toBuilder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .build());
    }

    static JsonNode expected(Scenario s) throws IOException {
        return JSON.readTree(ResultJson.toJson(Simulation.run(s, RunOptions.CHARTS), true));
    }

    /** The scenario the page last ran, read back through the same reader the CLI uses. */
    static Scenario scenarioOnPage() throws IOException {
        Object scenario = js("return JSON.stringify(window.outlierLab.result.scenario);");
        return ScenarioReader.read((String) scenario, "page", List.of()).scenario();
    }

    static void open(String hash) {
        driver.get(server.uri() + hash);
        waitForReady();
    }

    static void waitForReady() {
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> "true".equals(js("return document.body.dataset.ready || '';")) && runs() >= 1);
    }

    static int runs() {
        Object n = js("return Number(document.body.dataset.runs || 0);");
        return ((Number) n).intValue();
    }

    static void waitForRunAfter(int runs) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> runs() > runs);
    }

    static void clickPreset(String id) {
        int runs = runs();
        driver.findElement(By.cssSelector("[data-preset=" + id + "]")).click();
        waitForRunAfter(runs);
    }

    static void click(String css) {
        driver.findElement(By.cssSelector(css)).click();
    }

    static WebElement input(String control) {
        return driver.findElement(By.id("c-" + control));
    }

    static String inputValue(String control) {
        return input(control).getDomProperty("value");
    }

    static String text(String css) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    static String metric(String key) {
        return driver.findElement(By.cssSelector("[data-metric='" + key + "'] dd"))
                .getText();
    }

    static List<List<String>> rows() {
        @SuppressWarnings("unchecked")
        List<List<String>> rows =
                (List<List<String>>) js("return [...document.querySelectorAll('#events-table tbody tr.ev')]"
                        + ".map(r => [...r.cells].map(c => c.textContent).concat([r.getAttribute('aria-label')]));");
        return rows;
    }

    static void assertMetricsMatch(JsonNode want) {
        JsonNode s = want.get("summary");
        assertThat(metric("detections"))
                .isEqualTo(count(s.get("ejections_detected").asLong()));
        assertThat(metric("ejections"))
                .isEqualTo(count(s.get("ejections_enforced").asLong()));
        assertThat(metric("refused-by-the-cap"))
                .isEqualTo(count(s.get("ejections_overflow").asLong()));
        assertThat(metric("failed-requests")).isEqualTo(count(s.get("failed").asLong()));
        assertShown(
                metric("failed-during-the-fault"),
                " %",
                s.get("failed_percent_during_fault").asDouble());
        assertShown(metric("panic"), " s", s.get("panic_seconds").asDouble());
        assertThat(metric("most-hosts-out-at-once"))
                .startsWith(s.get("max_ejected_at_once").asText() + " of ");
    }

    /** A figure the page rounds to 1 decimal from 10 up, else to 2. */
    static void assertShown(String shown, String unit, double value) {
        assertThat(shown).endsWith(unit);
        double tolerance = (Math.abs(value) >= 10 ? 0.05 : 0.005) + 1e-9;
        assertThat(Double.parseDouble(shown.substring(0, shown.length() - unit.length())))
                .isCloseTo(value, Offset.offset(tolerance));
    }

    static void assertTableMatches(JsonNode want) {
        JsonNode events = want.get("events");
        List<List<String>> rows = rows();
        assertThat(rows).hasSize(Math.min(events.size(), 500));
        for (int i = 0; i < rows.size(); i++) {
            JsonNode e = events.get(i);
            List<String> row = rows.get(i);
            assertThat(row.get(1)).isEqualTo(e.get("host").asText());
            assertThat(row.get(2))
                    .isEqualTo(
                            switch (e.get("action").asText()) {
                                case "eject" -> "ejected";
                                case "overflow" -> "refused by the cap";
                                case "unenforced" -> "detected, not enforced";
                                default -> "returned";
                            });
            assertThat(row.get(7)).isEqualTo(e.get("explanation").asText());
            assertThat(Double.parseDouble(row.get(0).replace(" s", "")))
                    .isCloseTo(e.get("time").asDouble(), Offset.offset(0.0005));
        }
    }

    static String count(long n) {
        return String.format(Locale.US, "%,d", n);
    }

    static void assertNoHorizontalScroll() {
        Object wide = js(
                "const w = document.documentElement.clientWidth; return [...document.querySelectorAll('body *')]"
                        + ".filter(e => e.getBoundingClientRect().right > w + 0.5)"
                        + ".map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12);");
        Object overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(((Number) overflow).intValue())
                .as("page wider than the window: %s", wide)
                .isLessThanOrEqualTo(0);
    }

    static void viewport(Dimension size) {
        lab.viewport(size);
    }

    static Object js(String script, Object... args) {
        return lab.js(script, args);
    }

    static void screenshot(String name) throws IOException {
        lab.screenshot(name);
    }

    static void fullPageScreenshot(String name) throws IOException {
        lab.fullPageScreenshot(name);
    }
}
