package dev.outlierlab.live.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.stage.StageMode;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The properties in a real application context: Spring's duration format, and refusals that name the property. */
class StarterPropertiesTest {
    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(OutlierLabAutoConfiguration.class));

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    @Test
    void durationsTakeSpringsFormat() {
        runner.withPropertyValues(
                        "outlier-lab.services.search.settings.interval=500ms",
                        "outlier-lab.services.search.settings.base-ejection-time=PT1M",
                        "outlier-lab.services.llm.profile=gateway",
                        "outlier-lab.services.llm.settings.window=30s",
                        "outlier-lab.services.llm.max-ejection-percent=50",
                        "outlier-lab.services.llm.mode=shadow")
                .run(context -> {
                    OutlierLabPools pools = context.getBean(OutlierLabPools.class);
                    assertThat(pools.pools()).containsOnlyKeys("search", "llm");
                    assertThat(pools.pool("search").profile()).isEqualTo("envoy");
                    assertThat(pools.pool("search").mode()).isEqualTo(StageMode.PROD);
                    assertThat(pools.pool("llm").mode()).isEqualTo(StageMode.SHADOW);
                });
    }

    @Test
    void aBareNumberForADurationAndOtherMistakesAreRefusedNamingTheProperty() {
        runner.withPropertyValues("outlier-lab.services.search.settings.interval=10")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .isEqualTo(
                                "outlier-lab.services.search.settings.interval: 10 is not allowed; expected a duration with a "
                                        + "unit, such as 10s, 500ms or PT30S"));
        runner.withPropertyValues("outlier-lab.services.search.settings.interval=10us")
                .run(
                        context -> assertThat(rootMessage(context.getStartupFailure()))
                                .startsWith(
                                        "outlier-lab.services.search.settings.interval: 0.000010s is not allowed; expected a whole number of milliseconds"));
        runner.withPropertyValues("outlier-lab.services.search.settings.consecutive5xx=3")
                .run(
                        context -> assertThat(rootMessage(context.getStartupFailure()))
                                .startsWith(
                                        "outlier-lab.services.search.settings.consecutive5xx: 3 is not allowed; expected one of Envoy's outlier_detection fields: [consecutive_5xx,"));
        runner.withPropertyValues("outlier-lab.services.search.mode=on")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .isEqualTo(
                                "outlier-lab.services.search.mode: on is not allowed; expected off, shadow or prod"));
        runner.withPropertyValues(
                        "outlier-lab.services.llm.profile=gateway",
                        "outlier-lab.services.llm.settings.window=90s",
                        "outlier-lab.services.llm.settings.bucket=7s")
                .run(
                        context -> assertThat(rootMessage(context.getStartupFailure()))
                                .startsWith(
                                        "outlier-lab.services.llm.settings.window: 90s is not allowed; expected a whole number of buckets"));
        runner.withPropertyValues(
                        "outlier-lab.services.llm.profile=gateway", "outlier-lab.services.llm.max-ejection-percent=120")
                .run(
                        context -> assertThat(rootMessage(context.getStartupFailure()))
                                .isEqualTo(
                                        "outlier-lab.services.llm.max-ejection-percent: 120 is not allowed; expected a whole percentage from 0 to 100 (100: no cap)"));
    }
}
