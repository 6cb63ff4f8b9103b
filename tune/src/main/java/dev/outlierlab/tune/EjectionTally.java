package dev.outlierlab.tune;

import java.util.HashMap;
import java.util.Map;

/**
 * The ejection side of a run's {@link RunFigures}, whatever profile made the events: each ejection and return of a
 * host by one caller (an Envoy caller, a gRPC channel, a gateway process), in the order they happened, gives the
 * false ejections (of hosts that should stay), the healthy host-seconds they cost, the time to detect (fault start
 * to the first ejection of a failing host) and the time to return (last fault end to the return of the last failing
 * host still out). A host out at the end counts to the run's end.
 */
public final class EjectionTally {
    private final SuiteScenario suite;
    private final Map<String, Long> outSince = new HashMap<>();
    private long falseEjections;
    private long healthyNanos;
    private long detect = -1;
    private long lastReturn;

    public EjectionTally(SuiteScenario suite) {
        this.suite = suite;
    }

    public void eject(int caller, String host, long timeNanos) {
        outSince.putIfAbsent(caller + "/" + host, timeNanos);
        if (!suite.shouldEject().contains(host)) {
            falseEjections++;
        } else if (detect < 0 && timeNanos >= suite.faultStartNanos()) {
            detect = timeNanos - suite.faultStartNanos();
        }
    }

    public void uneject(int caller, String host, long timeNanos) {
        boolean good = suite.shouldEject().contains(host);
        Long since = outSince.remove(caller + "/" + host);
        if (since != null && !good) {
            healthyNanos += timeNanos - since;
        }
        if (good && timeNanos > suite.faultEndNanos()) {
            lastReturn = Math.max(lastReturn, timeNanos - suite.faultEndNanos());
        }
    }

    public long falseEjections() {
        return falseEjections;
    }

    public long detectNanos() {
        return detect;
    }

    /** The healthy host-seconds ejected up to {@code durationNanos}, each caller's weighed by its share of the traffic. */
    public long healthyNanos(long durationNanos, int callers) {
        long total = healthyNanos;
        for (Map.Entry<String, Long> still : outSince.entrySet()) {
            String host = still.getKey().substring(still.getKey().indexOf('/') + 1);
            if (!suite.shouldEject().contains(host)) {
                total += durationNanos - still.getValue();
            }
        }
        return total / Math.max(1, callers);
    }

    /** The time to return, with a failing host still out at the end counting to the end. */
    public long returnNanos(long durationNanos) {
        long out = lastReturn;
        for (String key : outSince.keySet()) {
            if (suite.shouldEject().contains(key.substring(key.indexOf('/') + 1))) {
                out = Math.max(out, durationNanos - suite.faultEndNanos());
            }
        }
        return out;
    }
}
