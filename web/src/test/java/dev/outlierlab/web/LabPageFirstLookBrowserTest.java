package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What a newcomer sees first, in a real headless Chromium against a real lab server: no developer timings on
 * screen, chart legends without placeholder dashes, every control wide enough for its value at every width,
 * a refused value that marks the results as not current and says why next to the control, the results within
 * the first screen of a phone, and the gateway view in user words with the number of endpoints configured.
 */
class LabPageFirstLookBrowserTest extends LabPageBrowserFixture {
    static final Dimension PHONE_375 = new Dimension(375, 812);

    @Test
    void theSummaryShowsNoDeveloperTimingsAndTheLegendsNoDashes() {
        open("");
        clickPreset("cap-34");
        String results = text("#results");
        assertThat(results).doesNotContainPattern("[0-9]+ ms").doesNotContain("server ");
        assertThat((String) js("return document.body.dataset.timing;"))
                .matches("table [0-9]+ ms, charts [0-9]+ ms, server [0-9]+ ms");
        // with the cursor off the charts, no legend shows a value; uPlot's own placeholder would be "--"
        assertThat(legendValues()).isNotEmpty().allSatisfy(v -> assertThat(v).isEmpty());
        assertThat(String.join(" ", legendTexts())).doesNotContain("–").doesNotContain("--");
        // on a chart, the legend shows the values at the cursor: the failed chart at 40 s, inside the fault
        js(
                "const u = [...document.querySelectorAll('#chart-failed .u-over')][0]; const r = u.getBoundingClientRect();"
                        + "u.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + r.width * 40 / 60, clientY: r.top + r.height / 2, bubbles: true }));");
        List<String> shown = legendValues();
        assertThat(shown).anySatisfy(v -> assertThat(v).matches("[0-9.]+ s"));
        assertThat(String.join(" ", shown)).doesNotContain("–").doesNotContain("--");
    }

    @Test
    void choicesAndNumbersAreWideEnoughForTheirValuesAtEveryWidth() {
        for (Dimension size : List.of(DESKTOP, new Dimension(820, 900), PHONE_375)) {
            viewport(size);
            open("");
            click("label:has(#profile-gateway)");
            new WebDriverWait(driver, Duration.ofSeconds(30))
                    .until(d -> ((Number) js("return Number(document.body.dataset.gwRuns || 0);")).intValue() >= 1);
            assertThat(clipped("#gw-controls"))
                    .as("gateway controls at %s", size)
                    .isEmpty();
            click("label:has(#profile-envoy)");
            js("document.querySelector('#controls details.more').open = true;");
            assertThat(clipped("#controls")).as("Envoy controls at %s", size).isEmpty();
            assertNoHorizontalScroll();
        }
        // the case the issue saw ("round_robi"): the choice is measured with every option, round_robin among them
        assertThat((String)
                        js("return [...document.getElementById('c-gw_strategy').options].map(o => o.text).join(',');"))
                .isEqualTo("ordered,round_robin,weighted");
    }

    @Test
    void aRefusedValueMarksTheResultsAsNotCurrentAndSaysWhyNextToTheControl() throws Exception {
        open("");
        clickPreset("cap-34");
        assertThat(metric("failed-requests")).isEqualTo("990");
        assertThat(driver.findElements(By.cssSelector("#controls input:invalid")))
                .as("no control starts refused")
                .isEmpty();
        assertThat(inputValue("clients")).isEqualTo("1");
        WebElement in = input("max_ejection_percent");
        in.clear();
        in.sendKeys("340", Keys.TAB);
        new WebDriverWait(driver, Duration.ofSeconds(10))
                .until(d -> !text("#error").isEmpty());
        assertThat(text("#error"))
                .startsWith("Max ejection percent: Value must be less than or equal to 100. The results below")
                .contains("not the ones shown");
        assertThat(text("[data-control=max_ejection_percent] .field-msg")).isNotEmpty();
        assertThat(in.getDomAttribute("aria-invalid")).isEqualTo("true");
        assertThat(js("return document.body.classList.contains('stale');")).isEqualTo(true);
        assertThat(Double.parseDouble(
                        (String) js("return getComputedStyle(document.getElementById('metrics')).opacity;")))
                .isLessThan(0.5);
        // a valid value runs again and the marks go
        int runs = runs();
        in.clear();
        in.sendKeys("10", Keys.TAB);
        waitForRunAfter(runs);
        assertThat(text("#error")).isEmpty();
        assertThat(driver.findElements(By.cssSelector(".field-msg"))).isEmpty();
        assertThat(js("return document.body.classList.contains('stale');")).isEqualTo(false);
        assertThat(metric("ejections"))
                .isEqualTo(count(expected(scenarioOnPage())
                        .at("/summary/ejections_enforced")
                        .asLong()));
    }

    @Test
    void onAPhoneTheResultsStartWithinTheFirstScreen() throws Exception {
        viewport(PHONE_375);
        open("");
        clickPreset("cap-34");
        js("window.scrollTo(0, 0);");
        double metricsTop =
                ((Number) js("return document.getElementById('metrics').getBoundingClientRect().top;")).doubleValue();
        double metricsBottom = ((Number)
                        js("return document.querySelector('#metrics .metric').getBoundingClientRect().bottom;"))
                .doubleValue();
        double controlsTop =
                ((Number) js("return document.getElementById('controls').getBoundingClientRect().top;")).doubleValue();
        assertThat(metricsBottom)
                .as("the first headline figure, px from the top")
                .isLessThan(PHONE_375.getHeight());
        assertThat(metricsTop).isLessThan(controlsTop);
        assertThat(metric("failed-requests")).isEqualTo("990");
        assertNoHorizontalScroll();
        screenshot("phone-375-results-first");

        click("label:has(#profile-gateway)");
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> ((Number) js("return Number(document.body.dataset.gwRuns || 0);")).intValue() >= 1);
        js("window.scrollTo(0, 0);");
        double gwTop = ((Number)
                        js("return document.querySelector('#gw-metrics .metric').getBoundingClientRect().bottom;"))
                .doubleValue();
        assertThat(gwTop).as("the gateway's first headline figure").isLessThan(PHONE_375.getHeight());
    }

    @Test
    void theGatewayViewSpeaksUserWordsAndCountsTheEndpointsConfigured() {
        open("");
        click("label:has(#profile-gateway)");
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> ((Number) js("return Number(document.body.dataset.gwRuns || 0);")).intValue() >= 1);
        String page = driver.findElement(By.tagName("body")).getText();
        assertThat(page)
                .doesNotContain("spec ")
                .doesNotContain("section 7")
                .doesNotContain("seed's")
                .contains("LLM or API gateway (such as LiteLLM, Portkey, Envoy AI Gateway)");
        assertThat(text("#gw-endpoint-count")).isEqualTo("6 endpoints");
        int runs = ((Number) js("return Number(document.body.dataset.gwRuns || 0);")).intValue();
        click("[data-gw-preset=two-one-dead]");
        new WebDriverWait(driver, Duration.ofSeconds(30))
                .until(d -> ((Number) js("return Number(document.body.dataset.gwRuns || 0);")).intValue() > runs);
        assertThat(text("#gw-endpoint-count")).isEqualTo("2 endpoints");
    }

    @Test
    void anExportInTheOldKeysStillLoads() throws Exception {
        open("");
        Path old = Files.createTempFile("old-export", ".json");
        Files.writeString(
                old,
                JSON.writeValueAsString(Map.of(
                        "tool",
                        "outlier-lab",
                        "inputs",
                        Map.of("name", "old export", "cluster", Map.of("hosts", 10)),
                        "metrics",
                        Map.of("failed", 1),
                        "trace",
                        List.of())));
        int runs = runs();
        WebElement file = driver.findElement(By.id("file"));
        js("arguments[0].hidden = false;", file);
        file.sendKeys(old.toAbsolutePath().toString());
        waitForRunAfter(runs);
        assertThat(inputValue("hosts")).isEqualTo("10");
        assertThat(metric("ejections"))
                .isEqualTo(count(expected(scenarioOnPage())
                        .at("/summary/ejections_enforced")
                        .asLong()));
        Files.delete(old);
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static List<String> legendTexts() {
        return (List<String>) js("return [...document.querySelectorAll('#charts .u-legend')].map(v => v.textContent);");
    }

    @SuppressWarnings("unchecked")
    private static List<String> legendValues() {
        return (List<String>)
                js("return [...document.querySelectorAll('#charts .u-legend .u-value')].map(v => v.textContent);");
    }

    /**
     * The visible controls under {@code form} whose value (every option of a choice) or label is wider than
     * the room it has, as "id: value needs N px, has M".
     */
    @SuppressWarnings("unchecked")
    private static List<String> clipped(String form) {
        return (List<String>) js("""
                const out = [];
                const probe = document.createElement('span');
                probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
                document.body.append(probe);
                const need = (el, text) => { const cs = getComputedStyle(el); probe.style.font = cs.font;
                  probe.style.letterSpacing = cs.letterSpacing; probe.textContent = text; return probe.getBoundingClientRect().width; };
                for (const el of document.querySelectorAll(arguments[0] + ' select, ' + arguments[0] + ' input[type=number], '
                    + arguments[0] + ' input[type=text]')) {
                  if (!el.getClientRects().length) continue;
                  const cs = getComputedStyle(el);
                  const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth);
                  const chrome = el.tagName === 'SELECT' || el.type === 'number' ? 18 : 0;
                  const texts = el.tagName === 'SELECT' ? [...el.options].map(o => o.text) : [el.value];
                  for (const t of texts) {
                    const w = need(el, t);
                    if (w + pad + chrome > el.getBoundingClientRect().width + 0.5) out.push(el.id + ': ' + t + ' needs ' + Math.ceil(w + pad + chrome) + ' px, has ' + Math.floor(el.getBoundingClientRect().width));
                  }
                }
                for (const l of document.querySelectorAll(arguments[0] + ' label')) {
                  if (l.getClientRects().length && l.scrollWidth > l.clientWidth + 1) out.push(l.textContent + ': label clipped');
                }
                probe.remove();
                return out;
                """, form);
    }
}
