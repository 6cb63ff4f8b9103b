package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * nginx, HAProxy and Caddy in a real Chromium: the profile switch offers them with their own directives, and the
 * page shows the figures {@code POST /api/run} (the JSON of {@code run --format json}) gives for the scenario it ran.
 */
class ServerProfilesBrowserTest extends LabPageBrowserFixture {
    private final LabApi api = new LabApi(SimulationLimits.DEFAULT);

    @Test
    void nginxCountsA503OnlyWhenProxyNextUpstreamListsIt() throws Exception {
        open("");
        int before = srvRuns();
        driver.findElement(By.cssSelector("label:has(#profile-nginx)")).click();
        waitForSrvRunAfter(before);
        assertThat(driver.findElement(By.id("srv-nginx-max_fails")).isDisplayed())
                .isTrue();
        assertThat(driver.findElement(By.id("events-table")).isDisplayed()).isFalse();

        // one server of three answers 503 to everything; proxy_next_upstream without http_503 ignores it
        setText("srv-nginx-proxy_next_upstream", "error timeout");
        JsonNode without = expectedForPage();
        assertThat(without.at("/scenario/nginx/proxy_next_upstream").toString()).isEqualTo("[\"error\",\"timeout\"]");
        assertThat(without.at("/summary/ejections").asLong()).isZero();
        long clientErrors = without.at("/summary/client_errors").asLong();
        assertThat(clientErrors).isEqualTo(without.at("/summary/requests").asLong() / 3);
        assertThat(srvMetric("ejections")).isEqualTo("0");
        assertThat(srvMetric("client-errors")).isEqualTo(count(clientErrors));
        assertThat(text("#srv-events-table tbody")).isEqualTo("No ejections or returns.");

        // with http_503 listed nginx counts it, takes the server out, and retries it elsewhere
        setText("srv-nginx-proxy_next_upstream", "error timeout http_503");
        JsonNode with = expectedForPage();
        long ejections = with.at("/summary/ejections").asLong();
        assertThat(ejections).isPositive();
        assertThat(with.at("/summary/client_errors").asLong()).isLessThan(clientErrors);
        assertThat(srvMetric("ejections")).isEqualTo(count(ejections));
        assertThat(srvMetric("client-errors"))
                .isEqualTo(count(with.at("/summary/client_errors").asLong()));
        List<WebElement> rows = driver.findElements(By.cssSelector("#srv-events-table tbody tr"));
        assertThat(rows).hasSize(with.get("events").size());
        JsonNode first = with.at("/events/0");
        assertThat(rows.get(0).getText())
                .isEqualTo(first.get("time").asText() + " " + first.get("host").asText() + " ejected "
                        + first.get("reason").asText());
        String link = driver.getCurrentUrl();
        assertThat(link).contains("nginx").contains("http_503");

        // the link reopens the nginx view with the same directive and the same figures
        driver.get("about:blank");
        driver.get(link);
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> "true".equals(js("return document.body.dataset.ready || '';")) && srvRuns() >= 1);
        assertThat(driver.findElement(By.id("profile-nginx")).isSelected()).isTrue();
        assertThat(driver.findElement(By.id("srv-nginx-proxy_next_upstream")).getDomProperty("value"))
                .isEqualTo("error timeout http_503");
        assertThat(srvMetric("ejections")).isEqualTo(count(ejections));
    }

    @Test
    void haproxyAndCaddyShowTheirOwnDirectivesAndAFieldsError() {
        open("");
        int before = srvRuns();
        driver.findElement(By.cssSelector("label:has(#profile-haproxy)")).click();
        waitForSrvRunAfter(before);
        for (String key : List.of("observe", "error_limit", "on_error", "inter", "fall", "rise")) {
            assertThat(driver.findElement(By.id("srv-haproxy-" + key)).isDisplayed())
                    .as(key)
                    .isTrue();
        }
        setText("srv-haproxy-on_error", "explode");
        WebElement msg = new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> d.findElement(By.cssSelector(".field:has(#srv-haproxy-on_error) .field-msg")));
        assertThat(msg.getText()).contains("on_error");
        assertThat(text("#srv-error")).isNotEmpty();

        before = srvRuns();
        driver.findElement(By.cssSelector("label:has(#profile-caddy)")).click();
        waitForSrvRunAfter(before);
        for (String key : List.of("fail_duration", "max_fails", "unhealthy_status", "lb_try_duration")) {
            assertThat(driver.findElement(By.id("srv-caddy-" + key)).isDisplayed())
                    .as(key)
                    .isTrue();
        }
        assertThat(text("#srv-error")).isEmpty();
    }

    /** What the lab's API answers for the scenario the page last ran. */
    private JsonNode expectedForPage() throws Exception {
        String scenario = (String) js("return JSON.stringify(window.outlierLabServers.result.scenario);");
        return JSON.readTree(api.run(scenario));
    }

    private static void setText(String id, String value) {
        int before = srvRuns();
        WebElement f = driver.findElement(By.id(id));
        f.click();
        f.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        f.sendKeys(value, Keys.TAB);
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> srvRuns() > before
                        && "false"
                                .equals(js(
                                        "return document.getElementById('srv-results').getAttribute('aria-busy');")));
    }

    private static String srvMetric(String key) {
        return driver.findElement(By.cssSelector("#srv-metrics [data-metric='" + key + "'] dd"))
                .getText();
    }

    private static int srvRuns() {
        return ((Number) js("return Number(document.body.dataset.srvRuns || 0);")).intValue();
    }

    private static void waitForSrvRunAfter(int runs) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> srvRuns() > runs);
    }
}
