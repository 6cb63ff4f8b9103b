package dev.outlierlab.sim;

import dev.outlierlab.sim.signals.StepIndex;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's requests as its callers saw them, for {@link RunRecorder}: the totals (sent, failed, during a fault, with
 * no host to go to), the time in panic and its windows, and the time series of each step (requests, failures, the
 * most hosts one caller had ejected, panic time).
 */
final class RequestTally {
    private final long stepNanos;
    private final StepIndex stepIndex;
    private final long[] seriesRequests;
    private final long[] seriesFailed;
    private final int[] seriesMaxEjected;
    private final long[] seriesPanic;
    private final List<PanicWindow> panicWindows = new ArrayList<>();

    private long requests;
    private long failed;
    private long requestsDuringFault;
    private long failedDuringFault;
    private long panicNanos;
    private long noHealthyUpstream;
    private long panicStart = -1;
    private long panicEnd;

    /** Steps of whole seconds, as few as make at most {@code maxSteps} of them over {@code durationNanos}. */
    RequestTally(long durationNanos, int maxSteps) {
        long second = 1_000_000_000L;
        long steps = Math.max(1, maxSteps);
        long stepSeconds = Math.max(1, (durationNanos + steps * second - 1) / (steps * second));
        this.stepNanos = stepSeconds * second;
        this.stepIndex = new StepIndex(stepNanos);
        int buckets = (int) ((durationNanos + stepNanos - 1) / stepNanos);
        seriesRequests = new long[buckets];
        seriesFailed = new long[buckets];
        seriesMaxEjected = new int[buckets];
        seriesPanic = new long[buckets];
    }

    long stepNanos() {
        return stepNanos;
    }

    /**
     * One request sent at {@code nanos} by a caller with {@code ejectedNow} hosts ejected; {@code nextNanos} is
     * when the cluster's next one is sent (or the run's end), which bounds the time it is charged in panic.
     */
    void request(
            long nanos,
            long nextNanos,
            boolean isFailed,
            boolean duringFault,
            boolean panic,
            boolean noHost,
            int ejectedNow) {
        int b = (int) stepIndex.of(nanos);
        requests++;
        seriesRequests[b]++;
        if (ejectedNow > seriesMaxEjected[b]) {
            seriesMaxEjected[b] = ejectedNow;
        }
        if (isFailed) {
            failed++;
            seriesFailed[b]++;
        }
        if (duringFault) {
            requestsDuringFault++;
            if (isFailed) {
                failedDuringFault++;
            }
        }
        if (noHost) {
            noHealthyUpstream++;
        }
        panic(b, nanos, nextNanos, panic);
    }

    /**
     * A stretch of requests in one step, {@code noHost} of them without a host and {@code faultFailed} failed by
     * their host: see {@link RunRecorder#stretch}.
     */
    void stretch(
            long fromNanos,
            long toNanos,
            long count,
            long noHost,
            long faultFailed,
            int ejected,
            boolean duringFault,
            boolean panic) {
        if (count <= 0) {
            return;
        }
        int b = (int) stepIndex.of(fromNanos);
        requests += count;
        seriesRequests[b] += count;
        if (ejected > seriesMaxEjected[b]) {
            seriesMaxEjected[b] = ejected;
        }
        long stretchFailed = noHost + faultFailed;
        failed += stretchFailed;
        seriesFailed[b] += stretchFailed;
        if (duringFault) {
            requestsDuringFault += count;
            failedDuringFault += stretchFailed;
        }
        noHealthyUpstream += noHost;
        panic(b, fromNanos, toNanos, panic);
    }

    /** Charges {@code from..to} to panic, or closes the open panic window, if any. */
    private void panic(int step, long fromNanos, long toNanos, boolean panic) {
        if (panic) {
            long dt = toNanos - fromNanos;
            panicNanos += dt;
            seriesPanic[step] += dt;
            if (panicStart < 0) {
                panicStart = fromNanos;
            }
            panicEnd = toNanos;
        } else if (panicStart >= 0) {
            panicWindows.add(new PanicWindow(panicStart, panicEnd));
            panicStart = -1;
        }
    }

    /** Closes a panic window still open at the run's end. */
    void finish() {
        if (panicStart >= 0) {
            panicWindows.add(new PanicWindow(panicStart, panicEnd));
            panicStart = -1;
        }
    }

    long requests() {
        return requests;
    }

    long failed() {
        return failed;
    }

    long requestsDuringFault() {
        return requestsDuringFault;
    }

    long failedDuringFault() {
        return failedDuringFault;
    }

    long panicNanos() {
        return panicNanos;
    }

    long noHealthyUpstream() {
        return noHealthyUpstream;
    }

    List<PanicWindow> panicWindows() {
        return List.copyOf(panicWindows);
    }

    TimeSeries series() {
        return new TimeSeries(stepNanos, seriesRequests, seriesFailed, seriesMaxEjected, seriesPanic);
    }
}
