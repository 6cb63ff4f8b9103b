package dev.outlierlab.tune;

import java.util.List;

/**
 * The runs of one "breaks when" condition and how many of them did what the condition asks about: for a shared outage
 * or a noise level, the runs in which the setting ejected a host; for a partial failure, the runs in which it ejected
 * the failing host within a minute.
 *
 * @param level the condition: the outage's or the partial failure's percentage, or the noise in parts per million
 * @param runs  the runs made of it (one a seed)
 * @param hits  how many of them ejected (or caught the failing host)
 */
public record ProbeTally(long level, int runs, int hits) {
    /** E.g. {@code in 1 of 20 runs}, {@code in none of 20 runs}. */
    public String frequency() {
        return "in " + (hits == 0 ? "none" : Integer.toString(hits)) + " of " + runs + " runs";
    }

    /** The tally of {@code level} in {@code tallies}, or null when that condition was not run. */
    static ProbeTally at(List<ProbeTally> tallies, long level) {
        for (ProbeTally t : tallies) {
            if (t.level() == level) {
                return t;
            }
        }
        return null;
    }
}
