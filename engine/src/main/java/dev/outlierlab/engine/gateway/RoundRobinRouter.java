package dev.outlierlab.engine.gateway;

/**
 * The round-robin rotation of one process: its j-th request (from 0) starts at endpoint {@code j mod n} and
 * wraps around, so the fallbacks of a request are the endpoints after its first.
 */
public final class RoundRobinRouter implements CandidateRouter {
    private long requests;

    @Override
    public void next(int[] out) {
        int n = out.length;
        int start = (int) (requests++ % n);
        for (int k = 0; k < n; k++) {
            int e = start + k;
            out[k] = e >= n ? e - n : e;
        }
    }
}
