package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.CheckTargets;
import dev.outlierlab.check.ConfigChecker;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.istio.DestinationRuleReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.yaml.snakeyaml.Yaml;

/**
 * The lab's Istio mode in a real Chromium: a DestinationRule with subsets loaded, istiod's translation shown, its
 * {@code maxEjectionPercent} edited until the lab ejects, the changed rule exported, and {@code check} reading the
 * exported rule clean with every field outside that {@code outlierDetection} block as it was.
 */
class IstioModeBrowserTest extends LabPageBrowserFixture {
    static final Path RULE = Path.of("../docs/examples/payments-destination-rule.yaml");

    @Test
    void aRuleWithSubsetsIsEditedUntilItEjectsAndExportedForCheck() throws Exception {
        open("");
        String original = Files.readString(RULE);
        js("document.getElementById('istio-rule').value = arguments[0];", original);
        WebElement hosts = driver.findElement(By.id("istio-hosts"));
        hosts.clear();
        hosts.sendKeys("4");
        int before = runs();
        click("#istio-use");
        waitForRunAfter(before);
        assertThat(new Select(driver.findElement(By.id("istio-cluster"))).getOptions())
                .extracting(WebElement::getText)
                .containsExactly("payments", "payments/v1", "payments/v2");
        // istiod's translation, field by field, with Istio's defaults: success rate off, panic off
        String translation = text("#istio-translation");
        assertThat(translation)
                .contains("outlier_detection.max_ejection_percent 10 maxEjectionPercent: 10")
                .contains("outlier_detection.enforcing_success_rate 0 Istio always sets 0")
                .contains("common_lb_config.healthy_panic_threshold 0");
        assertThat(inputValue("hosts")).isEqualTo("4");
        assertThat(inputValue("panic_threshold")).isEqualTo("0");
        // every request of the faulty pod fails: consecutive 5xx detects it, the 10 % cap refuses one pod of four
        before = runs();
        WebElement rate = input("error_rate");
        rate.clear();
        rate.sendKeys("100", Keys.TAB);
        waitForRunAfter(before);
        assertThat(metric("ejections")).isEqualTo("0");
        assertThat(Integer.parseInt(metric("refused-by-the-cap").replace(",", "")))
                .isPositive();

        // the rule's own field, as Istio names it: 25 % admits one pod of four
        before = runs();
        setIstioField("maxEjectionPercent", "25");
        waitForRunAfter(before);
        assertThat(Integer.parseInt(metric("ejections").replace(",", ""))).isPositive();
        assertThat(text("#istio-translation"))
                .contains("outlier_detection.max_ejection_percent 25 maxEjectionPercent: 25");
        // baseEjectionTime 15m leaves max_ejection_time to Envoy's rule: no error under a field never set
        before = runs();
        setIstioField("baseEjectionTime", "15m");
        waitForRunAfter(before);
        assertThat(text("#error")).isEmpty();
        assertThat(text("#istio-translation"))
                .contains("outlier_detection.max_ejection_time 900s Envoy default: " + "max(300s, base_ejection_time)");

        click("#istio-export");
        String exported = (String) js("return document.getElementById('istio-exported').value;");
        assertThat(exported).contains("maxEjectionPercent: 25", "baseEjectionTime: 15m");
        // check reads it clean
        List<Finding> errors = new ArrayList<>();
        for (CheckTarget t : CheckTargets.fromIstio(DestinationRuleReader.read(exported, "exported.yaml", null))) {
            ConfigChecker.check(t, 4, null).stream()
                    .filter(f -> f.severity() == Severity.ERROR)
                    .forEach(errors::add);
        }
        assertThat(errors).isEmpty();
        // every field outside the edited block is kept, the subsets' blocks included
        Map<String, Object> was = new Yaml().load(original);
        Map<String, Object> now = new Yaml().load(exported);
        outlierOf(now).put("maxEjectionPercent", 10);
        outlierOf(now).put("baseEjectionTime", "30s");
        assertThat(now).isEqualTo(was);
    }

    /** A value in one of the rule's fields, committed as leaving the field commits it (its change event). */
    private static void setIstioField(String name, String value) {
        WebElement f = driver.findElement(By.id("istio-f-" + name));
        f.click();
        js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'));", f, value);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> outlierOf(Map<String, Object> rule) {
        Map<String, Object> spec = (Map<String, Object>) rule.get("spec");
        return (Map<String, Object>) ((Map<String, Object>) spec.get("trafficPolicy")).get("outlierDetection");
    }
}
