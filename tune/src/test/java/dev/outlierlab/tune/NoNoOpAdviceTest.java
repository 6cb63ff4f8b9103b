package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eight hosts at 2,000 rps with Envoy's defaults: the cap of 10 % admits no host of 8, so the defaults remove nothing.
 * The recommendation is never those defaults while a setting with benefit exists: an admissible one when there is
 * one, else the best trade-off, said first and with its cost.
 */
class NoNoOpAdviceTest {
    private static final Set<String> SCENARIOS = Set.of("one-host-partial", "shared-outage", "noisy-pool");
    private static TuneResult strict;
    private static TuneResult loose;

    @BeforeAll
    static void tune() {
        // the second search differs only in the constraint: its runs are the first's, made once
        MemoRunExecutor runs = new MemoRunExecutor(2);
        strict = Tuner.tune(request(0), u -> {}, runs);
        loose = Tuner.tune(request(1_000_000), u -> {}, runs);
        System.out.println(TuneText.render(strict));
    }

    private static TuneRequest request(double maxFalsePerDay) {
        List<SuiteScenario> suite = new DefaultSuite(8, 2000, 1, 0)
                .scenarios().stream().filter(s -> SCENARIOS.contains(s.name())).toList();
        return EnvoyRequests.defaults(8, 2000, suite).threads(2).build().withMaxFalsePerDay(maxFalsePerDay);
    }

    @Test
    void eightHostsAt2000RpsAreNotToldToKeepEnvoysDefaults() {
        TuneResult r = strict;
        assertThat(r.current().benefitPercent()).isZero();
        assertThat(r.recommended()).isNotSameAs(r.current());
        assertThat(r.recommended().setting().maxEjectionPercent() > 10
                        || r.recommended().setting().alwaysEjectOneHost())
                .isTrue();
        assertThat(r.recommended().benefitPercent()).isGreaterThan(50);
        assertThat(r.recommended().undeployable()).isFalse();
        if (r.recommended().admissible()) {
            assertThat(r.headline()).isNull();
            assertThat(r.why()).doesNotContain("keep them");
        } else {
            assertThat(r.headline()).startsWith("No setting meets every constraint");
            assertThat(r.why()).startsWith("No setting the target can express meets every constraint here");
        }
    }

    @Test
    void aTradeOffIsTheLeastHarmOnTheFrontWithAtLeastHalfTheBestBenefit() {
        TuneResult r = strict;
        List<Evaluation> all = new ArrayList<>(r.front());
        Evaluation trade = Choice.tradeOff(all);
        assertThat(trade).isNotNull();
        double top = all.stream()
                .filter(e -> !e.undeployable() && e.benefitPercent() > 0)
                .mapToDouble(Evaluation::benefitPercent)
                .max()
                .orElseThrow();
        assertThat(trade.benefitPercent()).isGreaterThanOrEqualTo(top / 2);
        for (Evaluation e : all) {
            if (!e.undeployable() && e.benefitPercent() >= top / 2) {
                assertThat(trade.harm()).isLessThanOrEqualTo(e.harm());
            }
        }
    }

    @Test
    void loosenedFalseEjectionsPerDayAdmitWhatTheStrictConstraintRefuses() {
        long strictAdmissible =
                strict.front().stream().filter(Evaluation::admissible).count();
        long looseAdmissible =
                loose.front().stream().filter(Evaluation::admissible).count();
        assertThat(loose.recommended().admissible()).isTrue();
        assertThat(loose.recommended().benefitPercent())
                .isGreaterThanOrEqualTo(strict.recommended().benefitPercent());
        assertThat(looseAdmissible).isGreaterThanOrEqualTo(strictAdmissible);
    }
}
