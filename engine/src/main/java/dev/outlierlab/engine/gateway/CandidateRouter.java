package dev.outlierlab.engine.gateway;

/**
 * Gives each request of one process its candidate list: every endpoint, in routing order, written into the
 * caller's array (the request stage then filters it). One router per process, since each process keeps its
 * own rotation. Allocates nothing per request.
 */
@FunctionalInterface
public interface CandidateRouter {
    /** Writes the next request's candidates, all {@code out.length} endpoints, into {@code out}. */
    void next(int[] out);

    /** Always the listed order. */
    static CandidateRouter ordered() {
        return out -> {
            for (int i = 0; i < out.length; i++) {
                out[i] = i;
            }
        };
    }
}
