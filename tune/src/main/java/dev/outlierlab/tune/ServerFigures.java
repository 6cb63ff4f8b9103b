package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A proxy server's run (nginx, HAProxy, Caddy) reduced to a tune run's {@link RunFigures}: each ejection and return
 * tallied against the scenario's faulty hosts, per detector (an nginx worker without {@code zone}, else the one
 * process), the most out at once in any detector.
 */
public final class ServerFigures {
    private ServerFigures() {}

    /** One ejection or return: which detector decided, the server's index and address, when, and which way. */
    public record Decision(int detector, int endpoint, String name, long timeNanos, boolean eject) {}

    /**
     * What the server's run counted, besides its decisions; {@code delayedRequests} and {@code delayNanos} as
     * {@link RunFigures} has them (0 for a server whose retries the lab does not time).
     */
    public record Counts(
            long requests,
            long clientErrors,
            long requestsDuringFault,
            long errorsDuringFault,
            long[] attempts,
            long failedAttempts,
            long delayedRequests,
            long delayNanos) {
        public Counts(
                long requests,
                long clientErrors,
                long requestsDuringFault,
                long errorsDuringFault,
                long[] attempts,
                long failedAttempts) {
            this(requests, clientErrors, requestsDuringFault, errorsDuringFault, attempts, failedAttempts, 0, 0);
        }
    }

    public static RunFigures of(
            SuiteScenario suite, long durationNanos, int detectors, List<Decision> decisions, Counts counts) {
        EjectionTally tally = new EjectionTally(suite);
        List<Set<Integer>> out = new ArrayList<>();
        for (int d = 0; d < detectors; d++) {
            out.add(new HashSet<>());
        }
        long ejections = 0;
        int most = 0;
        for (Decision d : decisions) {
            Set<Integer> own = out.get(d.detector());
            if (d.eject()) {
                ejections++;
                tally.eject(d.detector(), d.name(), d.timeNanos());
                own.add(d.endpoint());
                most = Math.max(most, own.size());
            } else {
                tally.uneject(d.detector(), d.name(), d.timeNanos());
                own.remove(d.endpoint());
            }
        }
        long attempts = 0;
        for (long a : counts.attempts()) {
            attempts += a;
        }
        return new RunFigures(
                counts.requests(),
                counts.clientErrors(),
                counts.requestsDuringFault(),
                counts.errorsDuringFault(),
                ejections,
                0,
                tally.falseEjections(),
                tally.healthyNanos(durationNanos, detectors),
                most,
                0,
                tally.detectNanos(),
                tally.returnNanos(durationNanos),
                attempts,
                counts.failedAttempts(),
                counts.delayedRequests(),
                counts.delayNanos());
    }
}
