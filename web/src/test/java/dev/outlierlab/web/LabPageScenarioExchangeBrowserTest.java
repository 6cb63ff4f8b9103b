package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.ScenarioReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Scenarios into and out of the lab, in a real headless Chromium ({@link LabPageBrowserFixture}): Export JSON
 * downloads the inputs, metrics and trace the simulator gives for the same scenario; a shared link reproduces the
 * run; a scenario file loaded from disk sets the controls and runs, and a bad one shows the reader's message with its
 * line.
 */
class LabPageScenarioExchangeBrowserTest extends LabPageBrowserFixture {
    @Test
    void exportJsonDownloadsInputsMetricsAndTrace() throws Exception {
        open("");
        clickPreset("cap-34");
        lab.clearDownloads();
        click("#export");
        Path file = lab.awaitDownload("outlier-lab-bookstore-search.json");
        JsonNode doc = JSON.readTree(file.toFile());
        JsonNode want = expected(cap34());
        assertThat(doc.get("schema").asText()).isEqualTo("outlier-lab.lab-export.v1");
        assertThat(ExportSchema.errors(doc))
                .as("docs/schema/lab-export.v1.schema.json")
                .isEmpty();
        assertThat(ExportSchema.errors(((ObjectNode) doc.deepCopy()).set("metrics", doc.get("summary"))))
                .as("the old key name breaks the schema")
                .isNotEmpty();
        assertThat(doc.has("metrics"))
                .as("the CLI's key names, not the old ones")
                .isFalse();
        assertThat(doc.has("trace")).isFalse();
        assertSameJson(doc.get("inputs"), want.get("scenario"));
        assertSameJson(doc.get("summary"), want.get("summary"));
        assertSameJson(doc.get("events"), want.get("events"));
        assertThat(doc.get("inputs")
                        .at("/outlier_detection/max_ejection_percent")
                        .asInt())
                .isEqualTo(34);
        assertThat(doc.get("summary").get("failed").asLong()).isEqualTo(990);
        assertThat(ScenarioReader.read(Files.readString(file), "export", List.of())
                        .scenario())
                .as("outlier-lab run EXPORTED.json reads the inputs")
                .isEqualTo(cap34());
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
        assertThat(driver.findElement(By.cssSelector("[data-preset=ten-hosts]")).getAttribute("aria-pressed"))
                .isEqualTo("false");

        Files.writeString(yaml, "cluster:\n  hosts: ten\n");
        input.sendKeys(yaml.toAbsolutePath().toString());
        new WebDriverWait(driver, Duration.ofSeconds(10))
                .until(d -> !text("#error").isEmpty());
        assertThat(text("#error")).contains("cluster.hosts").contains(":2");
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    private static void setNumber(String control, String value) {
        int runs = runs();
        WebElement in = input(control);
        in.clear();
        in.sendKeys(value, Keys.TAB);
        waitForRunAfter(runs);
    }

    /** Equal as JSON values: numbers compare by value (JavaScript writes 0.0 as 0). */
    private static void assertSameJson(JsonNode actual, JsonNode expected) {
        Comparator<JsonNode> numbersByValue = (a, b) ->
                a.isNumber() && b.isNumber() ? Double.compare(a.asDouble(), b.asDouble()) : a.equals(b) ? 0 : 1;
        assertThat(actual.equals(numbersByValue, expected))
                .as("%s%nequals%n%s", actual, expected)
                .isTrue();
    }
}
