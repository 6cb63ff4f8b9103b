package dev.outlierlab.engine.gateway;

/**
 * The round-robin rotation of one process: its j-th request (from 0) starts at endpoint {@code j mod n} and
 * wraps around, so the fallbacks of a request are the endpoints after its first.
 */
public final class RoundRobinRouter implements CandidateRouter {
    /** The next request's first endpoint: the request count modulo n, kept without a division. */
    private int start;

    @Override
    public void next(int[] out) {
        int n = out.length;
        int start = this.start < n ? this.start : 0;
        this.start = start + 1;
        for (int k = 0; k < n; k++) {
            int e = start + k;
            out[k] = e >= n ? e - n : e;
        }
    }
}
