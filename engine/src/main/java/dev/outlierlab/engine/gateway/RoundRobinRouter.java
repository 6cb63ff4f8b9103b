package dev.outlierlab.engine.gateway;

/**
 * The round-robin rotation of one process: its j-th request (from 0) starts at endpoint {@code j mod n} and
 * wraps around, so the fallbacks of a request are the endpoints after its first. Each list is one copy out of
 * {@code 0, 1, ..., n-1, 0, 1, ..., n-1}, made once for the list length.
 */
public final class RoundRobinRouter implements CandidateRouter {
    /** The next request's first endpoint: the request count modulo n, kept without a division. */
    private int start;
    /** The endpoints twice over: the list starting at s is {@code twice[s, s + n)}. */
    private int[] twice = new int[0];

    @Override
    public void next(int[] out) {
        int n = out.length;
        if (twice.length != 2 * n) {
            twice = twiceOver(n);
        }
        int start = this.start < n ? this.start : 0;
        this.start = start + 1;
        int[] twice = this.twice;
        for (int k = 0; k < n; k++) { // a loop, not System.arraycopy: for a handful of endpoints the stub call costs more
            out[k] = twice[start + k];
        }
    }

    private static int[] twiceOver(int n) {
        int[] twice = new int[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            twice[i] = i < n ? i : i - n;
        }
        return twice;
    }
}
