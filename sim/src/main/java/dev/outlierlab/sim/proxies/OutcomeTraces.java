package dev.outlierlab.sim.proxies;

import dev.outlierlab.engine.Outcome;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.Iterator;
import java.util.function.LongConsumer;

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

    /** A passive check's intake of one attempt: its server, its outcome and its time. */
    @FunctionalInterface
    public interface Intake {
        void record(int host, int outcome, long nowNanos);
    }

    /** What a replayed trace counted: its attempts, the failed ones, and each server's attempts. */
    public record Counts(long requests, long errors, long[] attempts) {}

    /**
     * Replays a trace through a passive check whose timers run before each attempt ({@code runDue}) and once more at
     * the later of the last record and the scenario's end; each attempt that fails counts as a client error.
     */
    public static Counts replay(
            Iterator<TraceRecord> records, int hosts, long durationNanos, LongConsumer runDue, Intake intake) {
        long[] attempts = new long[hosts];
        long requests = 0;
        long errors = 0;
        long last = 0;
        while (records.hasNext()) {
            TraceRecord r = records.next();
            int outcome = outcome(r);
            if (outcome == SKIP) {
                continue;
            }
            runDue.accept(r.timeNanos());
            requests++;
            attempts[r.host()]++;
            intake.record(r.host(), outcome, r.timeNanos());
            if (Outcome.isFailure(outcome)) {
                errors++;
            }
            last = r.timeNanos();
        }
        runDue.accept(Math.max(last, durationNanos));
        return new Counts(requests, errors, attempts);
    }
}
