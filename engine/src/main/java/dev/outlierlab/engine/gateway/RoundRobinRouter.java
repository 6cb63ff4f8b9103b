package dev.outlierlab.engine.gateway;

/**
 * The round-robin rotation of one process: its j-th request (from 0) starts at endpoint {@code j mod n} and
 * wraps around, so the fallbacks of a request are the endpoints after its first. Every list is a slice of
 * {@code 0, 1, ..., n-1, 0, 1, ..., n-1}, read in place: the list starting at s is {@code [s, s + n)}.
 */
public final class RoundRobinRouter implements CandidateRouter {
    private final int[] twice;
    private final int n;
    /** The next request's first endpoint: the request count modulo n, kept without a division. */
    private int start;

    public RoundRobinRouter(int endpoints) {
        this.n = endpoints;
        this.twice = new int[2 * endpoints];
        for (int i = 0; i < 2 * endpoints; i++) {
            twice[i] = i < endpoints ? i : i - endpoints;
        }
    }

    @Override
    public int next() {
        int s = start;
        start = s + 1 < n ? s + 1 : 0;
        return s;
    }

    @Override
    public int[] list() {
        return twice;
    }

    @Override
    public int endpointCount() {
        return n;
    }

    @Override
    public boolean listsFixed() {
        return true;
    }
}
