package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Using the lab's controls, in a real headless Chromium ({@link LabPageBrowserFixture}): a bad value shows the
 * server's message and the lab keeps working, an answer arriving while the user types does not undo the typing, the
 * keyboard alone reaches a control, shows its explanation and runs it, the phone layout stacks without sideways
 * scrolling, and the time from a control change to the redrawn table, written to {@code target/responsiveness.txt}.
 */
class LabPageControlsBrowserTest extends LabPageBrowserFixture {
    @Test
    void badInputShowsTheServersMessageAndTheLabKeepsWorking() throws Exception {
        open("");
        WebElement rps = input("rps");
        rps.clear();
        rps.sendKeys("100000", Keys.TAB);
        // clearing the field shows its own message first; wait for the server's answer to the value typed
        new WebDriverWait(driver, Duration.ofSeconds(10))
                .until(d -> text("#error").contains("20,000,000 requests"));
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
        new WebDriverWait(driver, Duration.ofSeconds(20))
                .until(
                        d -> runs() > runs
                                && Long.valueOf(34)
                                        .equals(
                                                js(
                                                        "return window.outlierLab.result.scenario.outlier_detection.max_ejection_percent;")));
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
        assertThat(hint.getText())
                .isEqualTo("Largest share of the cluster that may be ejected at once (max_ejection_percent).");
        screenshot("05-tooltip-on-focus-desktop");
        int runs = runs();
        keys.keyDown(Keys.CONTROL)
                .sendKeys("a")
                .keyUp(Keys.CONTROL)
                .sendKeys("34")
                .sendKeys(Keys.TAB)
                .perform();
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
                    .until(d ->
                            runs() > runs && expectFirst.equals(rows().get(0).get(2)));
            long wall = (System.nanoTime() - t0) / 1_000_000;
            @SuppressWarnings("unchecked")
            Map<String, Object> t = (Map<String, Object>) new WebDriverWait(driver, Duration.ofSeconds(10))
                    .until(d -> js("const t = window.outlierLab.timings; const last = t[t.length - 1];"
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
        String report = String.format(
                Locale.ROOT,
                "outlier-lab serve: control change to redrawn table, default scenario (6 hosts, 600 rps, 300 s = 180,000 requests)%n"
                        + "measured in headless Chromium %s at 1280x800, %d keyboard toggles of always_eject_one_host (Space) after %d warm-up%n"
                        + "change event -> frame painting the table:  median %.1f ms, p90 %.1f ms, max %.1f ms%n"
                        + "change event -> frame painting the charts: median %.1f ms, p90 %.1f ms, max %.1f ms%n"
                        + "  of which the request (POST /api/run):     median %.1f ms%n"
                        + "    of which simulating and writing JSON:   median %.1f ms%n"
                        + "  of which updating the page's DOM:         median %.1f ms%n"
                        + "WebDriver, Space key -> table seen:        median %d ms (includes WebDriver round trips)%n",
                driver.getCapabilities().getBrowserVersion(),
                table.size(),
                warmup,
                median(table),
                p90(table),
                Collections.max(table),
                median(painted),
                p90(painted),
                Collections.max(painted),
                median(server),
                median(simulate),
                median(dom),
                outside.stream().sorted().toList().get(outside.size() / 2));
        System.out.print(report);
        Files.writeString(Path.of("target", "responsiveness.txt"), report);
        assertThat(median(table))
                .as("median control-change-to-table time (target under 100 ms)")
                .isLessThan(1_000);
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static double p90(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1);
    }
}
