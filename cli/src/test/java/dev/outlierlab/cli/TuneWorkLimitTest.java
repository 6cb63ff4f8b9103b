package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code tune} refuses a search estimated at over five minutes of CPU a thread unless {@code --yes} is given
 * ({@code SearchBudget} decides), with the estimate, what it counts and what the user can change in the flags of
 * {@code tune} (not a scenario's duration, which a tune user does not set): one message, exit 2, nothing on standard
 * output. Where even the search's pilot would be over half of that, before any run, on the bound.
 */
class TuneWorkLimitTest {
    @Test
    void aSearchOverFiveMinutesIsRefusedWithWhatItCounts() {
        CliRunner.Outcome r = CliRunner.run("tune", "--hosts", "200", "--rps", "400000", "--clients", "50");
        r.assertRejected(
                "this tune (16 scenarios; ",
                " candidates on one seed, at most 41 on 2, at most 17 on 8; on ",
                " of CPU a thread (its runs counted by kind of work, ",
                " failures reported one by one",
                ", each at its measured CPU cost; runs that candidates whose caps admit the same hosts share counted "
                        + "once, every other run and every failure counted as made), over the 5 min allowed without "
                        + "asking; lower --seeds, a lower --max-ejected (fewer caps to try), fewer --clients (each "
                        + "caller's detectors are simulated apart; the advice is then for that many callers), score a "
                        + "smaller --suite FILE of your own, or run the search elsewhere with --engine flink, or add "
                        + "--yes to run it anyway");
        assertThat(r.err()).doesNotContain("duration");
    }

    @Test
    void anAbsurdSearchIsRefusedBeforeAnyRunInHours() {
        CliRunner.Outcome r = CliRunner.run(
                "tune", "--hosts", "200", "--rps", "10000000", "--clients", "50", "--seeds", "20", "--format", "json");
        r.assertRejected(
                "this tune (16 scenarios; ",
                " at most 17 on 20; on ",
                " h of CPU a thread (its runs counted by kind of work, ",
                "over the 5 min allowed without asking; lower --seeds",
                "or add --yes to run it anyway");
        assertThat(r.err()).doesNotContain("duration");
    }
}
