package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The controls of issue 19 in a real headless Chromium ({@link LabPageBrowserFixture}): callers, the fault pattern
 * and active health checks edit the scenario and are kept in the link; "What the answer hinges on" says whether
 * each caller's share lets success rate run and, after a second run, whether the other pattern changes the
 * decisions; with several callers the table names each decision's caller and the charts say whose view they show.
 */
class LabPageCallersBrowserTest extends LabPageBrowserFixture {
    @Test
    void callersPatternAndHealthChecksAreControlsKeptInTheLink() throws Exception {
        open("");
        assertThat(new Select(input("fault_pattern")).getFirstSelectedOption().getText())
                .isEqualTo("even");
        new WebDriverWait(driver, Duration.ofSeconds(20))
                .until(d -> text("[data-hinge=pattern]").contains("changes the decisions"));
        assertThat(text("[data-hinge=pattern]"))
                .startsWith("pattern: failing at random instead of evenly changes the " + "decisions");
        assertThat(text("[data-hinge='success rate']")).startsWith("success rate: runs: the detector sees about 6,000");

        int runs = runs();
        new Select(input("fault_pattern")).selectByVisibleText("random");
        waitForRunAfter(runs);
        runs = runs();
        WebElement clients = input("clients");
        clients.clear();
        clients.sendKeys("50", Keys.TAB);
        waitForRunAfter(runs);
        new WebDriverWait(driver, Duration.ofSeconds(10))
                .until(d -> js("return location.hash;").toString().contains("clients"));
        runs = runs();
        input("health_checks_on").sendKeys(Keys.SPACE);
        waitForRunAfter(runs);
        assertThat(input("hc_interval").isEnabled()).isTrue();
        runs = runs();
        input("uneject_on_check").sendKeys(Keys.SPACE);
        waitForRunAfter(runs);

        JsonNode hash = JSON.readTree(
                URLDecoder.decode(js("return location.hash;").toString().substring("#scenario=".length()), "UTF-8"));
        assertThat(hash.at("/traffic/clients").asInt()).isEqualTo(50);
        assertThat(hash.at("/faults/0/pattern").asText()).isEqualTo("random");
        assertThat(hash.at("/health_checks/interval").asText()).isEqualTo("5s");
        assertThat(hash.at("/outlier_detection/successful_active_health_check_uneject_host")
                        .asBoolean())
                .isFalse();

        // the link reproduces it: a fresh page from the same hash shows the same controls and the same run
        String link = driver.getCurrentUrl();
        driver.get("about:blank");
        driver.get(link);
        waitForReady();
        assertThat(inputValue("clients")).isEqualTo("50");
        assertThat(new Select(input("fault_pattern")).getFirstSelectedOption().getText())
                .isEqualTo("random");
        assertThat(input("health_checks_on").isSelected()).isTrue();
        assertThat(input("uneject_on_check").isSelected()).isFalse();
        assertThat(text("[data-hinge='success rate']"))
                .startsWith("success rate: can never run: each caller sends "
                        + "about 120 requests per 10 s interval, 20 to each host");
        assertThat(metric("callers")).isEqualTo("50");
        assertThat(text("#callers-note")).startsWith("50 callers, each its own detector");
        @SuppressWarnings("unchecked")
        List<Object> clientsOfEvents = (List<Object>) js("return window.outlierLab.result.events.map(e => e.client);");
        assertThat(clientsOfEvents).isNotEmpty().doesNotContainNull();
        List<List<String>> rows = rows();
        assertThat(rows.get(0).get(1)).matches("host-\\d \\(caller \\d+\\)");

        runs = runs();
        input("health_checks_on").sendKeys(Keys.SPACE);
        waitForRunAfter(runs);
        assertThat(input("hc_interval").isEnabled()).isFalse();
        assertThat(js("return window.outlierLab.result.scenario.health_checks;"))
                .isNull();
        assertThat(driver.findElements(By.cssSelector("#error:not([hidden])")).stream()
                        .filter(WebElement::isDisplayed)
                        .count())
                .isZero();
    }
}
