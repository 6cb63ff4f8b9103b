package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The held-out check of a "breaks when" frequency: Fisher's exact test against known tables, and what it calls a
 * disagreement (a frequency stated as "in none of 20 runs" that held-out seeds see often), not a rare event seen once.
 */
class HeldOutBreaksTest {
    @Test
    void fishersExactTestGivesTheTextbookValues() {
        // the lady tasting tea: 3 of 4 against 1 of 4, two-sided 34/70
        assertThat(HeldOutBreaks.fisher(3, 4, 1, 4)).isCloseTo(34.0 / 70, within(1e-12));
        // none of 8 against 1 of 1: only the one hit landing on the held-out seed is as unlikely, 1/9
        assertThat(HeldOutBreaks.fisher(0, 8, 1, 1)).isCloseTo(1.0 / 9, within(1e-12));
        assertThat(HeldOutBreaks.fisher(5, 20, 2, 7)).isEqualTo(1.0);
    }

    @Test
    void aRareEventSeenOnceAgreesAndAFrequentOneStatedAsNoneDoesNot() {
        ProbeTally none = new ProbeTally(30, 20, 0);
        ProbeTally one = new ProbeTally(30, 20, 1);
        // the gateway's 30 % outage: one run of 20 ejects, and on seeds 4 to 10 one of 7 does
        HeldOutBreaks.Compared rare =
                new HeldOutBreaks.Compared("shared outage 30", one, 1, HeldOutBreaks.fisher(1, 20, 1, 7));
        // stated as none of 20, but 4 of 7 held-out runs eject: p = C(7,4)/C(27,4) = 35/17550, 0.2 %, which a matrix of
        // about a hundred such comparisons sees by chance (Envoy at 20 hosts with 5 callers, a 30 % outage)
        HeldOutBreaks.Compared four =
                new HeldOutBreaks.Compared("shared outage 30", none, 4, HeldOutBreaks.fisher(0, 20, 4, 7));
        assertThat(four.p()).isCloseTo(35.0 / 17550, within(1e-12));
        // 5 of 7: p = C(7,5)/C(27,5) = 21/80730, under 0.1 %
        HeldOutBreaks.Compared often =
                new HeldOutBreaks.Compared("shared outage 30", none, 5, HeldOutBreaks.fisher(0, 20, 5, 7));
        assertThat(often.p()).isCloseTo(21.0 / 80730, within(1e-12));
        assertThat(HeldOutBreaks.disagreements("cell", List.of(rare, four, often)))
                .containsExactly(
                        "cell breaks-when: stated \"shared outage 30 in none of 20 runs\", but on seeds 4 to 10 in"
                                + " 5 of 7");
    }
}
