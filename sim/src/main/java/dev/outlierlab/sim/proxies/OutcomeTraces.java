package dev.outlierlab.sim.proxies;

import dev.outlierlab.engine.Outcome;
import dev.outlierlab.sim.trace.TraceRecord;

/**
 * An outcome trace's record as a proxy's passive check sees it: a refused connection, a timeout or an external failure
 * (a 500), else the record's status. Envoy's connect-success signals are Envoy's own and are skipped.
 */
public final class OutcomeTraces {
    /** What {@link #outcome} gives for a record a proxy does not see. */
    public static final int SKIP = Integer.MIN_VALUE;

    private OutcomeTraces() {}

    public static int outcome(TraceRecord r) {
        if (r.result() == null) {
            return r.code();
        }
        return switch (r.result()) {
            case LOCAL_ORIGIN_CONNECT_FAILED -> Outcome.CONNECT_FAILED;
            case LOCAL_ORIGIN_TIMEOUT -> Outcome.TIMEOUT;
            case EXT_ORIGIN_REQUEST_FAILED -> r.code() >= 500 ? r.code() : 500;
            case EXT_ORIGIN_REQUEST_SUCCESS -> r.code() >= 0 ? r.code() : 200;
            case LOCAL_ORIGIN_CONNECT_SUCCESS, LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL -> SKIP;
        };
    }
}
