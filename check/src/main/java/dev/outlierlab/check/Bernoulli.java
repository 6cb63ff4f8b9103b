package dev.outlierlab.check;

/**
 * Runs of failures in a stream of independent requests that each fail with probability {@code p} (a
 * Bernoulli stream). The expected number of requests until the first run of {@code k} failures in a row is
 * {@code E = (1 - p^k) / ((1 - p) p^k)}: the standard result for the waiting time of a success run, from the
 * recurrence {@code E_k = (E_{k-1} + 1) / p}. Checked against a seeded loop in the tests.
 */
final class Bernoulli {
    private Bernoulli() {}

    /**
     * Expected requests until {@code k} failures in a row, each failing with probability {@code p}
     * (0 < p <= 1, k >= 1).
     */
    static double expectedRequestsToRun(double p, long k) {
        if (p <= 0 || p > 1 || k < 1) {
            throw new IllegalArgumentException("p in (0, 1] and k >= 1, not p " + p + ", k " + k);
        }
        if (p == 1) {
            return k;
        }
        double pk = Math.pow(p, k);
        return (1 - pk) / ((1 - p) * pk);
    }
}
