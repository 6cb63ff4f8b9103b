package dev.outlierlab.live;

/**
 * Where a drain hands the outcomes it takes from the rings, in the order it merged them: the pool's
 * {@link OutcomeDrain}, which applies each to the engine's detector.
 */
interface OutcomeSink {
    /** One outcome: its stamped time (negative for "at the drain's time") and its payload. */
    void apply(long stamped, long payload);
}
