package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.config.scenario.Examples;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The lab's figures in a real headless Chromium ({@link LabPageBrowserFixture}) against the simulator's own: the
 * defaults (the seed's opening case), the example button and every preset, each checked metric by metric and row by
 * row against a run of the same scenario, with the seed's checks that follow from the rules, and the decision trace
 * stepping through each event with the simulator's explanation.
 */
class LabPageFiguresBrowserTest extends LabPageBrowserFixture {
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
        JsonNode want = expected(Examples.load("overload-cap-100", List.of()).scenario());
        assertMetricsMatch(want);
        assertThat(scenarioOnPage())
                .isEqualTo(Examples.load("overload-cap-100", List.of()).scenario());
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
        assertThat(rows())
                .extracting(r -> r.get(0) + " " + r.get(2))
                .containsExactly(
                        "40 s ejected",
                        "70 s returned",
                        "80 s ejected",
                        "140 s returned",
                        "150 s ejected",
                        "240 s returned");
        assertThat(metric("failed-during-the-fault")).isEqualTo("0.79 %");
        assertThat(driver.findElement(By.cssSelector("[data-preset=cap-34]")).getAttribute("aria-pressed"))
                .isEqualTo("true");
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
            assertThat(preset.getAttribute("aria-pressed"))
                    .as("preset %s is marked", id)
                    .isEqualTo("true");
        }
        // The seed's checks that follow from the rules (the README explains the ones that do not).
        clickPreset("error-100");
        // Five 503s in a row: consecutive gateway failure is detected first (enforcing 0 by default), then 5xx ejects.
        assertThat(rows().get(0).subList(2, 4))
                .containsExactly("detected, not enforced", "consecutive gateway failure");
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
        assertThat(text("#trace-detail .step-sentence"))
                .isEqualTo(events.get(0).get("explanation").asText());
        assertThat(text("#trace-detail .step-sentence"))
                .isEqualTo(
                        "40 s: host-0 succeeded 67.0 % < threshold 71.1 % "
                                + "(mean 94.5, stdev 12.3, factor 1.9, 6 hosts); cap (0+1)/6 = 16.7 % <= 34 % -> ejected for 30 s, multiplier 1");
        assertThat(driver.findElements(By.cssSelector("#trace-detail .bar-row")))
                .hasSize(6);
        assertThat(driver.findElements(By.cssSelector("#trace-detail .bar.below")))
                .hasSize(1);
        screenshot("04-trace-step1-desktop");
        click("#trace-next");
        assertThat(text("#trace-position")).isEqualTo("Step 2 of 6");
        assertThat(text("#trace-detail .step-sentence"))
                .isEqualTo(events.get(1).get("explanation").asText());
        assertThat(driver.findElements(By.cssSelector("#trace-list li"))).hasSize(2);
        driver.findElement(By.id("trace-slider")).sendKeys(Keys.ARROW_RIGHT);
        assertThat(text("#trace-position")).isEqualTo("Step 3 of 6");
        assertThat(text("#trace-list li.current"))
                .contains(events.get(2).get("explanation").asText());
        click("#trace-all");
        assertThat(text("#trace-position")).isEqualTo("Step 6 of 6");
        List<String> steps = driver.findElements(By.cssSelector("#trace-list li")).stream()
                .map(WebElement::getText)
                .toList();
        assertThat(steps).hasSize(6);
        for (int i = 0; i < 6; i++) {
            assertThat(steps.get(i)).endsWith(events.get(i).get("explanation").asText());
        }
        // A table row opens its step in the trace.
        driver.findElement(By.cssSelector("#events-table tbody tr[data-index='3']"))
                .sendKeys(Keys.ENTER);
        assertThat(text("#trace-position")).isEqualTo("Step 4 of 6");
    }
}
