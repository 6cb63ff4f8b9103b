package dev.outlierlab.live;

import dev.outlierlab.engine.stage.RotationGuard;
import java.util.List;
import java.util.Map;

/**
 * What a live pool needs from a profile's engine detector. Implementations wrap the engine's detector and
 * hold no locks: the pool calls them only under its own lock, in time order, so the engine stays
 * single-threaded as it is in the lab.
 */
interface PoolDetector {
    /** The profile's name. */
    String profile();

    /** Whether callers try the endpoints in order, each next one a fallback; by default they rotate. */
    default boolean triesInOrder() {
        return false;
    }

    void add(Endpoint endpoint, long nowNanos);

    void remove(Endpoint endpoint, long nowNanos);

    /** Runs the work due at or before {@code nowNanos} (Envoy: interval ticks), then applies one outcome. */
    void apply(Endpoint endpoint, int code, long nowNanos);

    /** Runs the work due at or before {@code nowNanos}. */
    void runDue(long nowNanos);

    /** When work is next due, or {@link Long#MAX_VALUE}. */
    long nextDueNanos();

    /** When the stage keeps a whole candidate list although some of it is ejected. */
    RotationGuard guard();

    EndpointState state(Endpoint endpoint);

    Map<String, Long> stats();

    /** What cannot work with this many endpoints, in {@code check}'s words; none by default. */
    default List<String> warnings(int endpoints) {
        return List.of();
    }
}
