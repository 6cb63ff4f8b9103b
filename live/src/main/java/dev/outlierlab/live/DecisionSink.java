package dev.outlierlab.live;

/** Where a {@link PoolDetector} sends its decisions; the pool publishes them and tells its listeners. */
interface DecisionSink {
    void decided(Endpoint endpoint, DecisionKind kind, long timeNanos, String reason, Object detail);
}
