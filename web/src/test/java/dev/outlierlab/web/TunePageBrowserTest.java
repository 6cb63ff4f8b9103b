package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Tune view in a real headless Chromium ({@link BrowserLab}): a small search from the form, its front drawn as
 * one point per row, and the recommended point opening the lab with that setting.
 */
class TunePageBrowserTest {
    private static BrowserLab lab;

    @BeforeAll
    static void start() throws IOException {
        lab = BrowserLab.start();
        lab.viewport(new Dimension(1280, 900));
    }

    @AfterAll
    static void stop() {
        BrowserLab.stop(lab);
    }

    private static void waitUntil(String condition, int seconds) {
        new WebDriverWait(lab.driver, Duration.ofSeconds(seconds))
                .until(d -> Boolean.TRUE.equals(lab.js("return Boolean(" + condition + ");")));
    }

    private static void type(String id, String value) {
        WebElement e = lab.driver.findElement(By.id(id));
        e.clear();
        e.sendKeys(value);
    }

    @Test
    void aSearchDrawsTheFrontAndTheRecommendedPointOpensItInTheLab() throws IOException {
        lab.driver.get(lab.server.uri().resolve("/tune.html").toString());
        type("tune-hosts", "5");
        type("tune-rps", "100");
        type("tune-seeds", "1");
        lab.driver.findElement(By.id("tune-run")).click();
        waitUntil(
                "!document.getElementById('tune-result').hidden || !document.getElementById('tune-error').hidden", 120);
        assertThat(lab.driver.findElement(By.id("tune-error")).isDisplayed()).isFalse();
        List<WebElement> points = lab.driver.findElements(By.cssSelector("#tune-plot a.tune-point"));
        List<WebElement> rows = lab.driver.findElements(By.cssSelector("#tune-front tbody tr"));
        assertThat(points).hasSameSizeAs(rows).isNotEmpty();
        assertThat(lab.driver.findElement(By.id("tune-file-text")).getText()).contains("outlier_detection:");
        lab.screenshot("tune-front");
        String cap = lab.js("const pre = document.getElementById('tune-file-text').textContent;"
                        + "return /max_ejection_percent: (\\d+)/.exec(pre)[1];")
                .toString();
        // the recommended point is the larger one
        WebElement recommended = points.stream()
                .filter(p -> "8".equals(p.findElement(By.tagName("circle")).getDomAttribute("r")))
                .findFirst()
                .orElseThrow();
        lab.js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}));", recommended);
        waitUntil("document.getElementById('c-max_ejection_percent') && document.body.dataset.runs >= 1", 60);
        assertThat(lab.driver.getCurrentUrl()).contains("#scenario=");
        assertThat(lab.driver.findElement(By.id("c-max_ejection_percent")).getDomProperty("value"))
                .isEqualTo(cap);
    }
}
