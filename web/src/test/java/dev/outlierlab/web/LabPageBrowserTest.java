package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The lab in a real headless Chromium (Debian's chromium and chromium-driver, paths set explicitly so
 * Selenium Manager never downloads anything): presets, the table and metrics against the simulator's own
 * figures, the decision trace, Export JSON, a shared link, loading a file, bad input, keyboard use, the
 * phone layout, and the time from a control change to the redrawn table. Screenshots go to
 * {@code target/screenshots/}, the timing to {@code target/responsiveness.txt}.
 */
class LabPageBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Dimension DESKTOP = new Dimension(1280, 800);
    private static final Dimension PHONE = new Dimension(390, 844);

    private static BrowserLab lab;
    private static LabServer server;
    private static ChromeDriver driver;

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

    @Test
    void defaultsShowTheSeedsOpeningCase() throws Exception {
        open("");
        JsonNode want = expected(Scenario.defaults());
        assertMetricsMatch(want);
        assertTableMatches(want);
        assertThat(text("#story")).contains("The cap refused all 21 detections");
        screenshot("01-defaults-desktop");
        fullPageScreenshot("01-defaults-desktop-full");
        assertNoHorizontalScroll();
    }

    @Test
    void exampleButtonRunsTheOverloadStoryAndDrawsMembershipAgainstEjections() throws Exception {
        open("");
        int runs = runs();
        driver.findElement(By.cssSelector("[data-example=overload-cap-100]")).click();
        waitForRunAfter(runs);
        JsonNode want = expected(dev.outlierlab.config.scenario.Examples.load("overload-cap-100", List.of()).scenario());
        assertMetricsMatch(want);
        assertThat(scenarioOnPage()).isEqualTo(
                dev.outlierlab.config.scenario.Examples.load("overload-cap-100", List.of()).scenario());
        Object mostActive = js("return Math.max(...window.outlierLab.result.signals.ejections_active);");
        assertThat(((Number) mostActive).intValue()).isEqualTo(5);
        assertThat(driver.findElements(By.cssSelector("#chart-signals canvas"))).isNotEmpty();
        assertThat(text("#chart-signals")).contains("membership_healthy", "ejections_active");
        screenshot("09-example-overload-cap-100");
    }

    @Test
    void presetCap34MatchesTheSimulator() throws Exception {
        open("");
        clickPreset("cap-34");
        JsonNode want = expected(cap34());
        assertMetricsMatch(want);
        assertTableMatches(want);
        assertThat(rows()).extracting(r -> r.get(0) + " " + r.get(2)).containsExactly(
                "40 s ejected", "70 s returned", "80 s ejected", "140 s returned", "150 s ejected", "240 s returned");
        assertThat(metric("failed-during-the-fault")).isEqualTo("0.79 %");
        assertThat(driver.findElement(By.cssSelector("[data-preset=cap-34]")).getAttribute("aria-pressed")).isEqualTo("true");
        assertThat(inputValue("max_ejection_percent")).isEqualTo("34");
        screenshot("02-cap34-desktop");
    }

    @Test
    void everyPresetMatchesTheSimulator() throws Exception {
        open("");
        for (WebElement preset : driver.findElements(By.cssSelector("[data-preset]"))) {
            String id = preset.getAttribute("data-preset");
            int runs = runs();
            preset.click();
            waitForRunAfter(runs);
            JsonNode want = expected(scenarioOnPage());
            assertMetricsMatch(want);
            assertTableMatches(want);
            assertThat(preset.getAttribute("aria-pressed")).as("preset %s is marked", id).isEqualTo("true");
        }
        // The seed's checks that follow from the rules (the README explains the ones that do not).
        clickPreset("error-100");
        // Five 503s in a row: consecutive gateway failure is detected first (enforcing 0 by default), then 5xx ejects.
        assertThat(rows().get(0).subList(2, 4)).containsExactly("detected, not enforced", "consecutive gateway failure");
        assertThat(rows().get(1).subList(2, 4)).containsExactly("ejected", "consecutive 5xx");
        assertThat(rows().get(1).get(0)).startsWith("30.");
        clickPreset("ten-hosts");
        assertThat(metric("ejections")).isEqualTo("3");
        assertThat(metric("most-hosts-out-at-once")).isEqualTo("1 of 10");
        clickPreset("four-dead");
        assertThat(metric("most-hosts-out-at-once")).isEqualTo("4 of 6");
        assertThat(text("#story")).contains("in panic");
        screenshot("03-four-dead-desktop");
    }

    @Test
    void traceStepsThroughEachDecision() throws Exception {
        open("");
        clickPreset("cap-34");
        JsonNode events = expected(cap34()).get("events");
        click("#trace-start");
        js("document.getElementById('trace').scrollIntoView();");
        assertThat(text("#trace-position")).isEqualTo("Step 1 of 6");
        assertThat(text("#trace-detail .step-sentence")).isEqualTo(events.get(0).get("explanation").asText());
        assertThat(text("#trace-detail .step-sentence")).isEqualTo("40 s: host-0 succeeded 67.0 % < threshold 71.1 % "
                + "(mean 94.5, stdev 12.3, factor 1.9, 6 hosts); cap (0+1)/6 = 16.7 % <= 34 % -> ejected for 30 s, multiplier 1");
        assertThat(driver.findElements(By.cssSelector("#trace-detail .bar-row"))).hasSize(6);
        assertThat(driver.findElements(By.cssSelector("#trace-detail .bar.below"))).hasSize(1);
        screenshot("04-trace-step1-desktop");
        click("#trace-next");
        assertThat(text("#trace-position")).isEqualTo("Step 2 of 6");
        assertThat(text("#trace-detail .step-sentence")).isEqualTo(events.get(1).get("explanation").asText());
        assertThat(driver.findElements(By.cssSelector("#trace-list li"))).hasSize(2);
        driver.findElement(By.id("trace-slider")).sendKeys(Keys.ARROW_RIGHT);
        assertThat(text("#trace-position")).isEqualTo("Step 3 of 6");
        assertThat(text("#trace-list li.current")).contains(events.get(2).get("explanation").asText());
        click("#trace-all");
        assertThat(text("#trace-position")).isEqualTo("Step 6 of 6");
        List<String> steps = driver.findElements(By.cssSelector("#trace-list li")).stream().map(WebElement::getText).toList();
        assertThat(steps).hasSize(6);
        for (int i = 0; i < 6; i++) {
            assertThat(steps.get(i)).endsWith(events.get(i).get("explanation").asText());
        }
        // A table row opens its step in the trace.
        driver.findElement(By.cssSelector("#events-table tbody tr[data-index='3']")).sendKeys(Keys.ENTER);
        assertThat(text("#trace-position")).isEqualTo("Step 4 of 6");
    }

    @Test
    void exportJsonDownloadsInputsMetricsAndTrace() throws Exception {
        open("");
        clickPreset("cap-34");
        lab.clearDownloads();
        click("#export");
        Path file = lab.awaitDownload("outlier-lab-bookstore-search.json");
        JsonNode doc = JSON.readTree(file.toFile());
        JsonNode want = expected(cap34());
        assertSameJson(doc.get("inputs"), want.get("scenario"));
        assertSameJson(doc.get("metrics"), want.get("summary"));
        assertSameJson(doc.get("trace"), want.get("events"));
        assertThat(doc.get("inputs").at("/outlier_detection/max_ejection_percent").asInt()).isEqualTo(34);
        assertThat(doc.get("metrics").get("failed").asLong()).isEqualTo(990);
        assertThat(doc.get("link").asText()).contains("#scenario=");
    }

    @Test
    void aSharedLinkReproducesTheRun() throws Exception {
        open("");
        clickPreset("cap-34");
        setNumber("error_rate", "50");
        List<List<String>> table = rows();
        String failed = metric("failed-requests");
        String link = driver.getCurrentUrl();
        assertThat(link).contains("#scenario=");

        driver.get("about:blank");
        driver.get(link);
        waitForReady();
        assertThat(rows()).isEqualTo(table);
        assertThat(metric("failed-requests")).isEqualTo(failed);
        assertThat(inputValue("max_ejection_percent")).isEqualTo("34");
        assertThat(inputValue("error_rate")).isEqualTo("50");
        JsonNode want = expected(scenarioOnPage());
        assertThat(want.at("/scenario/faults/0/error_rate").asInt()).isEqualTo(50);
        assertTableMatches(want);
    }

    @Test
    void loadsAScenarioFileFromDisk() throws Exception {
        open("");
        Path yaml = Files.createTempFile("ten-hosts", ".yaml");
        Files.writeString(yaml, "name: ten hosts\ncluster:\n  hosts: 10\ntraffic:\n  rps: 1000\n");
        int runs = runs();
        WebElement input = driver.findElement(By.id("file"));
        js("arguments[0].hidden = false;", input);
        input.sendKeys(yaml.toAbsolutePath().toString());
        waitForRunAfter(runs);
        assertThat(inputValue("hosts")).isEqualTo("10");
        assertThat(inputValue("rps")).isEqualTo("1000");
        assertThat(metric("ejections")).isEqualTo("3");
        assertThat(driver.findElement(By.cssSelector("[data-preset=ten-hosts]")).getAttribute("aria-pressed")).isEqualTo("false");

        Files.writeString(yaml, "cluster:\n  hosts: ten\n");
        input.sendKeys(yaml.toAbsolutePath().toString());
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !text("#error").isEmpty());
        assertThat(text("#error")).contains("cluster.hosts").contains(":2");
    }

    @Test
    void badInputShowsTheServersMessageAndTheLabKeepsWorking() throws Exception {
        open("");
        WebElement rps = input("rps");
        rps.clear();
        rps.sendKeys("100000", Keys.TAB);
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !text("#error").isEmpty());
        assertThat(text("#error")).contains("20,000,000 requests");
        int runs = runs();
        rps = input("rps");
        rps.clear();
        rps.sendKeys("600", Keys.TAB);
        waitForRunAfter(runs);
        assertThat(driver.findElement(By.id("error")).isDisplayed()).isFalse();
        assertThat(metric("detections")).isEqualTo("21");
    }

    @Test
    void anAnswerArrivingWhileTheUserTypesDoesNotUndoTheTyping() throws Exception {
        open("");
        int runs = runs();
        // Commit 3, and before its answer arrives type 34 (which waits for the typing pause).
        js("const cap = document.getElementById('c-max_ejection_percent');"
                + "cap.value = '3'; cap.dispatchEvent(new Event('change'));"
                + "cap.value = '34'; cap.dispatchEvent(new Event('input'));");
        new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> runs() > runs
                && Long.valueOf(34).equals(js("return window.outlierLab.result.scenario.outlier_detection.max_ejection_percent;")));
        assertThat(inputValue("max_ejection_percent")).isEqualTo("34");
        assertThat(metric("ejections")).isEqualTo("3");
    }

    @Test
    void keyboardAloneReachesAControlSeesItsExplanationAndRunsIt() throws Exception {
        open("");
        driver.findElement(By.tagName("body")).click();
        Actions keys = new Actions(driver);
        String id = "";
        for (int i = 0; i < 80 && !id.equals("c-max_ejection_percent"); i++) {
            keys.sendKeys(Keys.TAB).perform();
            id = driver.switchTo().activeElement().getAttribute("id");
        }
        assertThat(id).isEqualTo("c-max_ejection_percent");
        WebElement hint = driver.findElement(By.id("h-max_ejection_percent"));
        assertThat(hint.isDisplayed()).isTrue();
        assertThat(hint.getText()).isEqualTo("Largest share of the cluster that may be ejected at once (max_ejection_percent).");
        screenshot("05-tooltip-on-focus-desktop");
        int runs = runs();
        keys.keyDown(Keys.CONTROL).sendKeys("a").keyUp(Keys.CONTROL).sendKeys("34").sendKeys(Keys.TAB).perform();
        waitForRunAfter(runs);
        assertThat(metric("ejections")).isEqualTo("3");
    }

    @Test
    void phoneWidthStacksWithoutSidewaysScrolling() throws Exception {
        viewport(PHONE);
        open("");
        clickPreset("cap-34");
        assertNoHorizontalScroll();
        screenshot("06-cap34-phone");
        js("document.getElementById('results').scrollIntoView();");
        screenshot("07-results-phone");
        click("#trace-start");
        js("document.getElementById('trace').scrollIntoView();");
        screenshot("08-trace-phone");
        fullPageScreenshot("06-cap34-phone-full");
        assertThat(rows()).hasSize(6);
    }

    @Test
    void controlChangeToRedrawnTableForTheDefaultScenario() throws Exception {
        open("");
        List<Double> table = new ArrayList<>();
        List<Double> painted = new ArrayList<>();
        List<Double> server = new ArrayList<>();
        List<Double> dom = new ArrayList<>();
        List<Double> simulate = new ArrayList<>();
        List<Long> outside = new ArrayList<>();
        int samples = 22;
        int warmup = 2;
        WebElement toggle = input("always_eject_one_host");
        for (int i = 0; i < samples; i++) {
            int runs = runs();
            long t0 = System.nanoTime();
            toggle.sendKeys(Keys.SPACE);
            String expectFirst = i % 2 == 0 ? "ejected" : "refused by the cap";
            new WebDriverWait(driver, Duration.ofSeconds(10), Duration.ofMillis(5))
                    .until(d -> runs() > runs && expectFirst.equals(rows().get(0).get(2)));
            long wall = (System.nanoTime() - t0) / 1_000_000;
            @SuppressWarnings("unchecked")
            Map<String, Object> t = (Map<String, Object>) new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> js(
                    "const t = window.outlierLab.timings; const last = t[t.length - 1];"
                            + "return last && last.run === window.outlierLab.runs ? last : null;"));
            if (i >= warmup) {
                table.add(((Number) t.get("tableMs")).doubleValue());
                painted.add(((Number) t.get("chartsMs")).doubleValue());
                server.add(((Number) t.get("serverMs")).doubleValue());
                dom.add(((Number) t.get("domMs")).doubleValue());
                simulate.add(((Number) t.get("simulateMs")).doubleValue());
                outside.add(wall);
            }
        }
        String report = String.format(Locale.ROOT,
                "outlier-lab serve: control change to redrawn table, default scenario (6 hosts, 600 rps, 300 s = 180,000 requests)%n"
                        + "measured in headless Chromium %s at 1280x800, %d keyboard toggles of always_eject_one_host (Space) after %d warm-up%n"
                        + "change event -> frame painting the table:  median %.1f ms, p90 %.1f ms, max %.1f ms%n"
                        + "change event -> frame painting the charts: median %.1f ms, p90 %.1f ms, max %.1f ms%n"
                        + "  of which the request (POST /api/run):     median %.1f ms%n"
                        + "    of which simulating and writing JSON:   median %.1f ms%n"
                        + "  of which updating the page's DOM:         median %.1f ms%n"
                        + "WebDriver, Space key -> table seen:        median %d ms (includes WebDriver round trips)%n",
                driver.getCapabilities().getBrowserVersion(), table.size(), warmup,
                median(table), p90(table), Collections.max(table),
                median(painted), p90(painted), Collections.max(painted), median(server), median(simulate), median(dom),
                outside.stream().sorted().toList().get(outside.size() / 2));
        System.out.print(report);
        Files.writeString(Path.of("target", "responsiveness.txt"), report);
        assertThat(median(table)).as("median control-change-to-table time (target under 100 ms)").isLessThan(1_000);
    }

    // ---- helpers ------------------------------------------------------------------------------------

    private static Scenario cap34() {
        Scenario s = Scenario.defaults();
        return s.withOutlierDetection(s.outlierDetection().toBuilder().set(OutlierSetting.MAX_EJECTION_PERCENT, 34).build());
    }

    private static JsonNode expected(Scenario s) throws IOException {
        return JSON.readTree(ResultJson.toJson(Simulation.run(s, RunOptions.CHARTS), true));
    }

    /** The scenario the page last ran, read back through the same reader the CLI uses. */
    private static Scenario scenarioOnPage() throws IOException {
        Object scenario = js("return JSON.stringify(window.outlierLab.result.scenario);");
        return dev.outlierlab.config.scenario.ScenarioReader.read((String) scenario, "page", List.of()).scenario();
    }

    private static void open(String hash) {
        driver.get(server.uri() + hash);
        waitForReady();
    }

    private static void waitForReady() {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> "true".equals(
                js("return document.body.dataset.ready || '';")) && runs() >= 1);
    }

    private static int runs() {
        Object n = js("return Number(document.body.dataset.runs || 0);");
        return ((Number) n).intValue();
    }

    private static void waitForRunAfter(int runs) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> runs() > runs);
    }

    private static void clickPreset(String id) {
        int runs = runs();
        driver.findElement(By.cssSelector("[data-preset=" + id + "]")).click();
        waitForRunAfter(runs);
    }

    private static void click(String css) {
        driver.findElement(By.cssSelector(css)).click();
    }

    private static WebElement input(String control) {
        return driver.findElement(By.id("c-" + control));
    }

    private static String inputValue(String control) {
        return input(control).getDomProperty("value");
    }

    private static void setNumber(String control, String value) {
        int runs = runs();
        WebElement in = input(control);
        in.clear();
        in.sendKeys(value, Keys.TAB);
        waitForRunAfter(runs);
    }

    private static String text(String css) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    private static String metric(String key) {
        return driver.findElement(By.cssSelector("[data-metric='" + key + "'] dd")).getText();
    }

    private static List<List<String>> rows() {
        @SuppressWarnings("unchecked")
        List<List<String>> rows = (List<List<String>>) js("return [...document.querySelectorAll('#events-table tbody tr.ev')]"
                + ".map(r => [...r.cells].map(c => c.textContent).concat([r.getAttribute('aria-label')]));");
        return rows;
    }

    private static void assertMetricsMatch(JsonNode want) {
        JsonNode s = want.get("summary");
        assertThat(metric("detections")).isEqualTo(count(s.get("ejections_detected").asLong()));
        assertThat(metric("ejections")).isEqualTo(count(s.get("ejections_enforced").asLong()));
        assertThat(metric("refused-by-the-cap")).isEqualTo(count(s.get("ejections_overflow").asLong()));
        assertThat(metric("failed-requests")).isEqualTo(count(s.get("failed").asLong()));
        assertShown(metric("failed-during-the-fault"), " %", s.get("failed_percent_during_fault").asDouble());
        assertShown(metric("panic"), " s", s.get("panic_seconds").asDouble());
        assertThat(metric("most-hosts-out-at-once")).startsWith(s.get("max_ejected_at_once").asText() + " of ");
    }

    /** A figure the page rounds to 1 decimal from 10 up, else to 2. */
    private static void assertShown(String shown, String unit, double value) {
        assertThat(shown).endsWith(unit);
        double tolerance = (Math.abs(value) >= 10 ? 0.05 : 0.005) + 1e-9;
        assertThat(Double.parseDouble(shown.substring(0, shown.length() - unit.length())))
                .isCloseTo(value, org.assertj.core.data.Offset.offset(tolerance));
    }

    private static void assertTableMatches(JsonNode want) {
        JsonNode events = want.get("events");
        List<List<String>> rows = rows();
        assertThat(rows).hasSize(Math.min(events.size(), 500));
        for (int i = 0; i < rows.size(); i++) {
            JsonNode e = events.get(i);
            List<String> row = rows.get(i);
            assertThat(row.get(1)).isEqualTo(e.get("host").asText());
            assertThat(row.get(2)).isEqualTo(switch (e.get("action").asText()) {
                case "eject" -> "ejected";
                case "overflow" -> "refused by the cap";
                case "unenforced" -> "detected, not enforced";
                default -> "returned";
            });
            assertThat(row.get(7)).isEqualTo(e.get("explanation").asText());
            assertThat(Double.parseDouble(row.get(0).replace(" s", ""))).isCloseTo(e.get("time").asDouble(),
                    org.assertj.core.data.Offset.offset(0.0005));
        }
    }

    /** Equal as JSON values: numbers compare by value (JavaScript writes 0.0 as 0). */
    private static void assertSameJson(JsonNode actual, JsonNode expected) {
        java.util.Comparator<JsonNode> numbersByValue = (a, b) -> a.isNumber() && b.isNumber()
                ? Double.compare(a.asDouble(), b.asDouble()) : a.equals(b) ? 0 : 1;
        assertThat(actual.equals(numbersByValue, expected)).as("%s%nequals%n%s", actual, expected).isTrue();
    }

    private static String count(long n) {
        return String.format(Locale.US, "%,d", n);
    }

    private static void assertNoHorizontalScroll() {
        Object wide = js("const w = document.documentElement.clientWidth; return [...document.querySelectorAll('body *')]"
                + ".filter(e => e.getBoundingClientRect().right > w + 0.5)"
                + ".map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12);");
        Object overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        assertThat(((Number) overflow).intValue()).as("page wider than the window: %s", wide).isLessThanOrEqualTo(0);
    }

    private static void viewport(Dimension size) {
        lab.viewport(size);
    }

    private static Object js(String script, Object... args) {
        return lab.js(script, args);
    }

    private static void screenshot(String name) throws IOException {
        lab.screenshot(name);
    }

    private static void fullPageScreenshot(String name) throws IOException {
        lab.fullPageScreenshot(name);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double p90(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1);
    }
}
