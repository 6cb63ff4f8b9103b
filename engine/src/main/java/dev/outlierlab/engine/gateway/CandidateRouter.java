package dev.outlierlab.engine.gateway;

/**
 * Gives each request of one process its candidate list: every endpoint, in routing order (the request stage
 * then filters it). One router per process, since each process keeps its own rotation. The list is read in
 * place from the router's own array ({@link #list()} at the offset {@link #next()} returns), not copied for
 * each request: for a handful of endpoints a copy of variable length costs more than the rest of the
 * routing. Allocates nothing per request.
 */
public interface CandidateRouter {
    /**
     * Moves to the next request and returns where its candidates start in {@link #list()}: they are
     * {@code list()[k, k + endpointCount())}, valid until the next call.
     */
    int next();

    /** The array {@link #next()} points into: the router's own, the same for its whole life; never write it. */
    int[] list();

    /** How many endpoints each list holds. */
    int endpointCount();

    /**
     * Whether the list at each offset of {@link #list()} is the same at every request (listed order, round
     * robin), so that a stage may remember its decision per offset; false when the router rewrites its list.
     */
    default boolean listsFixed() {
        return false;
    }
}
