package dev.outlierlab.sim;

import dev.outlierlab.sim.signals.SignalRecorder;
import dev.outlierlab.sim.signals.SignalRecorder.RequestFate;

/**
 * The event-driven path's record of a stretch of counted requests ({@link EventDrivenRun}): requests in one step of
 * the series and one epoch of every caller, none of them walked, recorded as the per-request path records them one
 * by one. Keeps what the stretches need of the callers' epochs: how many callers are in panic, how many find no host,
 * the most hosts one has ejected.
 */
final class Stretches {
    private final CallerRotation[] rotations;
    private final int clients;
    private final SendSchedule schedule;
    private final RunRecorder recorder;
    private final SignalRecorder signals;
    /** Over the callers' epochs: how many are in panic, how many find no host, the most ejected. */
    private int panicCallers;

    private int noHostCallers;
    private int mostEjected;

    Stretches(CallerRotation[] rotations, SendSchedule schedule, RunRecorder recorder) {
        this.rotations = rotations;
        this.clients = rotations.length;
        this.schedule = schedule;
        this.recorder = recorder;
        this.signals = recorder.signals();
    }

    /** Reads the callers' epochs again, after one of them started. */
    void summarise() {
        panicCallers = 0;
        noHostCallers = 0;
        mostEjected = 0;
        for (CallerRotation r : rotations) {
            panicCallers += r.panic() ? 1 : 0;
            noHostCallers += r.size() == 0 ? 1 : 0;
            mostEjected = Math.max(mostEjected, r.ejected());
        }
    }

    /** Whether the callers' epochs disagree on panic (some in panic, some not). */
    boolean disagreeOnPanic() {
        return panicCallers != 0 && panicCallers != clients;
    }

    /**
     * Requests {@code [from, to)}, all in one step and one epoch of every caller: each succeeds, or fails for want
     * of a host when its caller has none, but for {@code faultFailed} that failed at their host (folded failures):
     * where the callers disagree on panic ({@link #disagreeOnPanic}), those are the first {@code failedCount} of
     * {@code failedAt}, in order.
     */
    void record(long from, long to, long faultFailed, long[] failedAt, int failedCount, boolean duringFault) {
        long n = to - from;
        if (n <= 0) {
            return;
        }
        long noHost = 0;
        int ejected = 0;
        boolean allPanic;
        boolean nonePanic;
        if (n >= clients) {
            if (noHostCallers > 0) {
                for (int c = 0; c < clients; c++) {
                    if (rotations[c].size() == 0) {
                        noHost += schedule.callerRequestsBefore(c, to) - schedule.callerRequestsBefore(c, from);
                    }
                }
            }
            ejected = mostEjected;
            allPanic = panicCallers == clients;
            nonePanic = panicCallers == 0;
        } else {
            // fewer requests than callers: each of their callers once
            int panics = 0;
            int c = (int) (from % clients);
            for (long k = 0; k < n; k++) {
                CallerRotation r = rotations[c];
                noHost += r.size() == 0 ? 1 : 0;
                panics += r.panic() ? 1 : 0;
                ejected = Math.max(ejected, r.ejected());
                if (++c == clients) {
                    c = 0;
                }
            }
            allPanic = panics == n;
            nonePanic = panics == 0;
        }
        if (!allPanic && !nonePanic) {
            // callers disagree on panic: the panic windows follow the callers request by request
            if (faultFailed > failedCount) {
                throw new IllegalStateException("the failures of requests " + from + " to " + to + " are not known");
            }
            int next = 0;
            for (long i = from; i < to; i++) {
                int c = (int) (i % clients);
                CallerRotation r = rotations[c];
                boolean none = r.size() == 0;
                boolean failed = next < failedCount && failedAt[next] == i;
                next += failed ? 1 : 0;
                long t = schedule.timeOf(i);
                recorder.request(c, t, schedule.timeOrEnd(i + 1), none || failed, duringFault, r.panic(), none);
                signals.request(
                        t, none ? RequestFate.FAILED_NO_HOST : failed ? RequestFate.FAILED_FAULT : RequestFate.OK);
            }
            return;
        }
        long fromNanos = schedule.timeOf(from);
        recorder.stretch(fromNanos, schedule.timeOrEnd(to), n, noHost, faultFailed, ejected, duringFault, allPanic);
        signals.requests(fromNanos, n - noHost - faultFailed, noHost, faultFailed);
    }
}
