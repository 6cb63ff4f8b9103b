package dev.outlierlab.engine.stage;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.ScheduledWork;
import java.util.Arrays;

/**
 * What a detector tells the request stage, set by the stage's tests: which endpoints are ejected (through
 * {@link #set} and {@link #flip}), with a version that changes at every change, as a detector keeps one for the
 * stage's cache; whether any is ejected; and due work that returns every endpoint at {@link #returnAt}. It
 * counts the due work's runs and the questions about single endpoints, so that a test can see what the stage
 * asked.
 */
final class EjectionFlags implements EjectionState, ScheduledWork {
    private final boolean[] ejected;
    private long version;
    /** When the due work returns every endpoint; {@link ScheduledWork#NEVER} for never. */
    long returnAt = NEVER;
    /** How often the due work ran. */
    int runs;
    /** How often the stage asked about one endpoint. */
    int asked;

    EjectionFlags(int endpoints) {
        ejected = new boolean[endpoints];
    }

    void set(int endpoint, boolean isEjected) {
        ejected[endpoint] = isEjected;
        version++;
    }

    void flip(int endpoint) {
        set(endpoint, !ejected[endpoint]);
    }

    @Override
    public int endpointCount() {
        return ejected.length;
    }

    @Override
    public boolean isEjected(int endpoint) {
        asked++;
        return ejected[endpoint];
    }

    @Override
    public boolean anyEjected() {
        for (boolean e : ejected) {
            if (e) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long ejectionVersion() {
        return version;
    }

    @Override
    public long nextDueNanos() {
        return returnAt;
    }

    @Override
    public void runDue(long nowNanos) {
        runs++;
        Arrays.fill(ejected, false);
        version++;
        returnAt = NEVER;
    }
}
