package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The trade-off when nothing meets every constraint weighs what the callers pay where nothing should be ejected
 * before the count of ejections: many short false ejections that fail no request rank above a few that answer most
 * requests with an error (nginx, Caddy, HAProxy with every server out).
 */
class TradeOffClientCostTest {
    private static final List<SuiteScenario> SUITE = new DefaultSuite(6, 120, 1, 0)
            .scenarios().stream()
                    .filter(s -> s.name().equals("one-host-partial") || s.name().equals("shared-outage"))
                    .toList();

    @Test
    void aSettingThatFailsNoMoreRequestsComesBeforeOneWithLessHarm() {
        // 80 false ejections a run in the shared outage, none felt by the callers; removes 67 %
        Evaluation quietForCallers = evaluation(1, 400, 5_000, 80);
        // 5 false ejections a run, every server out: 15,000 more failed requests of 36,000; removes 100 %
        Evaluation answers502 = evaluation(2, 100, 20_000, 5);
        assertThat(answers502.harm()).isLessThan(quietForCallers.harm());
        assertThat(answers502.addsFailuresWhereNoneShould()).isTrue();
        assertThat(answers502.addedFailuresPerThousand()).isEqualTo(15_000 * 1000.0 / 36_000);
        assertThat(answers502.violations())
                .anyMatch(
                        v -> v.startsWith("shared-outage: 416.7 more failed requests per 1,000 than with detection off"
                                + " (4,320,000 a day at 120 rps), where nothing should be ejected"));
        assertThat(quietForCallers.addsFailuresWhereNoneShould()).isFalse();
        assertThat(quietForCallers.admissible()).isFalse(); // its false ejections break --max-false-per-day 0
        assertThat(Choice.tradeOff(List.of(answers502, quietForCallers))).isSameAs(quietForCallers);
        assertThat(List.of(answers502, quietForCallers).stream()
                        .sorted(Choice.RANKING)
                        .findFirst()
                        .orElseThrow())
                .isSameAs(quietForCallers);
    }

    @Test
    void whenEveryOneAddsFailuresTheFewestAddedAmongTheUsefulOnes() {
        Evaluation fewer = evaluation(1, 400, 8_000, 40);
        Evaluation more = evaluation(2, 100, 20_000, 5);
        Evaluation useless = evaluation(3, 950, 5_100, 1);
        Evaluation trade = Choice.tradeOff(List.of(more, fewer, useless));
        assertThat(trade).isSameAs(fewer);
    }

    @Test
    void maxAddedFailuresIsTheUsersToLoosen() {
        // 3,000 more failed requests of 36,000 in the outage: 83.3 per 1,000, no false ejection
        Evaluation strict = evaluation(1, 100, 8_000, 0, Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND);
        assertThat(strict.addsFailuresWhereNoneShould()).isTrue();
        assertThat(strict.admissible()).isFalse();
        assertThat(strict.violations())
                .containsExactly("shared-outage: 83.3 more failed requests per 1,000 than with detection off (864,000 a"
                        + " day at 120 rps), where nothing should be ejected (at most 1.0)");
        Evaluation loosened = evaluation(1, 100, 8_000, 0, 84);
        assertThat(loosened.addsFailuresWhereNoneShould()).isFalse();
        assertThat(loosened.admissible()).isTrue();
        assertThat(loosened.allowedAddedPerThousand()).isEqualTo(84);
        assertThat(evaluation(1, 100, 8_000, 0, 83).admissible())
                .as("83 per 1,000 is under the 83.3 it adds")
                .isFalse();
    }

    @Test
    void whereDetectionOffLosesNothingASettingThatAddsFailuresRemovesMinusAHundredPercent() {
        SuiteScenario partial = SUITE.stream()
                .filter(s -> s.name().equals("one-host-partial"))
                .findFirst()
                .orElseThrow();
        // the route retries the failing host's 503s: detection off fails nothing, neither does the correct action
        ScenarioScore adds =
                new ScenarioScore(partial, List.of(figures(4_000, 0)), List.of(figures(0, 0)), List.of(figures(0, 0)));
        assertThat(adds.removedPercent(0)).isEqualTo(-100.0);
        // 36 more of 36,000 is one in 1,000: within the allowance, nothing to remove, nothing added
        ScenarioScore chance =
                new ScenarioScore(partial, List.of(figures(36, 0)), List.of(figures(0, 0)), List.of(figures(0, 0)));
        assertThat(chance.removedPercent(0)).isNaN();
        ScenarioScore thirtySeven =
                new ScenarioScore(partial, List.of(figures(37, 0)), List.of(figures(0, 0)), List.of(figures(0, 0)));
        assertThat(thirtySeven.removedPercent(0)).isEqualTo(-100.0);
    }

    @Test
    void whenEverySettingThatRemovesSomethingAddsFailuresTheAdmissibleOneThatHarmsLeastIsRecommended() {
        // removes 100 % of the partial host's failures, but answers 15,000 more requests with 502 in the outage
        Evaluation catches = evaluation(1, 100, 20_000, 5);
        // removes nothing (it ejects nothing), fails nothing more anywhere: admissible
        Evaluation quiet = evaluation(2, 1_000, 5_000, 0);
        // the current setting: removes 0 and fails 10,000 more in the outage
        Evaluation current = evaluation(0, 1_000, 15_000, 3);
        assertThat(quiet.admissible()).isTrue();
        assertThat(quiet.benefitPercent()).isZero();
        assertThat(catches.benefitPercent()).isEqualTo(100.0);
        assertThat(Choice.tradeOff(List.of(current, catches, quiet))).isSameAs(catches);
        assertThat(Choice.choose(List.of(current, catches, quiet), current)).isSameAs(quiet);
        assertThat(Choice.boughtWithFailures(quiet, List.of(catches, quiet))).isSameAs(catches);
        // one that adds 2.8 failed requests per 1,000 in the outage but spares 25 per 1,000 of the partial host's is
        // worth its cost: the trade-off, not the setting that catches nothing
        Evaluation cheap = evaluation(4, 100, 5_100, 5);
        assertThat(cheap.addsFailuresWhereNoneShould()).isTrue();
        assertThat(Choice.spared(cheap, quiet).perThousand()).isEqualTo(900 * 1000.0 / 36_000);
        assertThat(Choice.choose(List.of(current, catches, quiet, cheap), current))
                .isSameAs(cheap);
        // a trade-off that fails no more requests where nothing should be ejected is still recommended over it
        Evaluation quietForCallers = evaluation(3, 400, 5_000, 80);
        assertThat(Choice.choose(List.of(current, catches, quiet, quietForCallers), current))
                .isSameAs(quietForCallers);
        assertThat(Choice.boughtWithFailures(quietForCallers, List.of(catches, quietForCallers)))
                .isNull();
    }

    /** A setting whose runs fail {@code failedOnePartial} of the failing host's scenario and so many in the outage. */
    private static Evaluation evaluation(int candidate, long failedOnePartial, long failedOutage, long falseEjections) {
        return evaluation(
                candidate, failedOnePartial, failedOutage, falseEjections, Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND);
    }

    private static Evaluation evaluation(
            int candidate, long failedOnePartial, long failedOutage, long falseEjections, double maxAdded) {
        SuiteScenario partial = SUITE.get(0).name().equals("one-host-partial") ? SUITE.get(0) : SUITE.get(1);
        SuiteScenario outage = partial == SUITE.get(0) ? SUITE.get(1) : SUITE.get(0);
        ScenarioScore p = new ScenarioScore(
                partial, List.of(figures(failedOnePartial, 0)), List.of(figures(1_000, 0)), List.of(figures(100, 0)));
        ScenarioScore o = new ScenarioScore(
                outage,
                List.of(figures(failedOutage, falseEjections)),
                List.of(figures(5_000, 0)),
                List.of(figures(5_000, 0)));
        return Evaluation.of(
                candidate, Setting.of(OutlierDetectionConfig.defaults()), null, List.of(p, o), 6, 0, maxAdded);
    }

    private static RunFigures figures(long failed, long falseEjections) {
        return new RunFigures(36_000, failed, 25_200, failed, falseEjections, 0, falseEjections, 0, 1, 0, -1, 0);
    }
}
