package dev.outlierlab.engine.gateway;

/**
 * The round-robin rotation of one process: its j-th request (from 0) starts at endpoint {@code j mod n} and
 * wraps around, so the fallbacks of a request are the endpoints after its first. Every list is a slice of
 * {@code 0, 1, ..., n-1, 0, 1, ..., n-1}, read in place: the list starting at s is {@code [s, s + n)}. The
 * listed order ({@link #listedOrder}) is the rotation that never moves: every list starts at 0.
 */
public final class RoundRobinRouter implements CandidateRouter {
    private final int[] twice;
    private final int n;
    /** How far the start moves per request: 1, or 0 for the listed order. */
    private final int step;
    /** The next request's first endpoint: the request count modulo n, kept without a division. */
    private int start;

    public RoundRobinRouter(int endpoints) {
        this(endpoints, 1);
    }

    private RoundRobinRouter(int endpoints, int step) {
        this.n = endpoints;
        this.step = step;
        this.twice = new int[2 * endpoints];
        for (int i = 0; i < 2 * endpoints; i++) {
            twice[i] = i < endpoints ? i : i - endpoints;
        }
    }

    /** Always the listed order: {@code 0, 1, ..., n-1} for every request. */
    public static RoundRobinRouter listedOrder(int endpoints) {
        return new RoundRobinRouter(endpoints, 0);
    }

    @Override
    public int next() {
        int s = start;
        int t = s + step;
        start = t < n ? t : 0;
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
