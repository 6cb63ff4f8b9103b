package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.EndpointSlots;
import java.util.Arrays;

/**
 * The calls each endpoint finished, in two buckets as grpc-java's {@code EndpointTracker.CallCounter} keeps them:
 * the active bucket counts calls now, the inactive one holds the interval the last sweep judged; a sweep swaps
 * them ({@code swapCounters}), clearing the new active bucket. Endpoints are indexed in the detector's order.
 */
final class CallCounters {
    private long[] activeSuccess;
    private long[] activeFailure;
    private long[] inactiveSuccess;
    private long[] inactiveFailure;

    CallCounters(int endpoints) {
        activeSuccess = new long[endpoints];
        activeFailure = new long[endpoints];
        inactiveSuccess = new long[endpoints];
        inactiveFailure = new long[endpoints];
    }

    /** Counts one finished call of {@code endpoint} in the active bucket. */
    void record(int endpoint, boolean success) {
        if (success) {
            activeSuccess[endpoint]++;
        } else {
            activeFailure[endpoint]++;
        }
    }

    /** At a sweep: the active bucket becomes the judged one, and counting starts again from 0. */
    void swap() {
        for (int i = 0; i < activeSuccess.length; i++) {
            inactiveSuccess[i] = activeSuccess[i];
            inactiveFailure[i] = activeFailure[i];
            activeSuccess[i] = 0;
            activeFailure[i] = 0;
        }
    }

    /** Successful calls of {@code endpoint} in the judged interval. */
    long successes(int endpoint) {
        return inactiveSuccess[endpoint];
    }

    /** Failed calls of {@code endpoint} in the judged interval. */
    long failures(int endpoint) {
        return inactiveFailure[endpoint];
    }

    /** Calls of {@code endpoint} in the judged interval. */
    long volume(int endpoint) {
        return inactiveSuccess[endpoint] + inactiveFailure[endpoint];
    }

    /** The judged interval's successes of every endpoint (read, not changed, by the interval's report). */
    long[] judgedSuccesses() {
        return inactiveSuccess;
    }

    /** The judged interval's failures of every endpoint (read, not changed, by the interval's report). */
    long[] judgedFailures() {
        return inactiveFailure;
    }

    /** Adds an endpoint at the end with both buckets empty. */
    void add() {
        int n = activeSuccess.length + 1;
        activeSuccess = Arrays.copyOf(activeSuccess, n);
        activeFailure = Arrays.copyOf(activeFailure, n);
        inactiveSuccess = Arrays.copyOf(inactiveSuccess, n);
        inactiveFailure = Arrays.copyOf(inactiveFailure, n);
    }

    /** Removes the endpoint at {@code endpoint}; those after it move down by one. */
    void remove(int endpoint) {
        activeSuccess = EndpointSlots.without(activeSuccess, endpoint);
        activeFailure = EndpointSlots.without(activeFailure, endpoint);
        inactiveSuccess = EndpointSlots.without(inactiveSuccess, endpoint);
        inactiveFailure = EndpointSlots.without(inactiveFailure, endpoint);
    }
}
