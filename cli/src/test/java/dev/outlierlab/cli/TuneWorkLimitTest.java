package dev.outlierlab.cli;

import org.junit.jupiter.api.Test;

/**
 * {@code tune} refuses a search estimated at over five minutes of work unless {@code --yes} is given, with the estimate,
 * what it counts and what the user can change in the flags of {@code tune} (not a scenario's duration, which a tune
 * user does not set). Where even the search's pilot would be over half of that, before any run, on the bound.
 */
class TuneWorkLimitTest {
    @Test
    void aSearchOverFiveMinutesIsRefusedWithWhatItCounts() {
        CliRunner.run("tune", "--hosts", "200", "--rps", "400000", "--clients", "50")
                .assertRejected(
                        "this tune (16 scenarios; ",
                        " candidates on one seed, at most 41 on 2, at most 17 on 8; on ",
                        " request-equivalents a thread: runs that candidates whose caps admit the same hosts "
                                + "share counted once, every other run and every failure counted as made, at 16 million "
                                + "a second), over the 5 min allowed without asking; lower --seeds, a lower "
                                + "--max-ejected (fewer caps to try), fewer --clients (each caller's detectors are "
                                + "simulated apart; the advice is then for that many callers), score a smaller --suite FILE of your own, or run the search "
                                + "elsewhere with --engine flink, or add --yes to run it anyway");
    }
}
