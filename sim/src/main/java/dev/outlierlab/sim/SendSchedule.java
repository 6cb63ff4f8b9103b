package dev.outlierlab.sim;

import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;

/**
 * The lab model's even arrivals as arithmetic (docs/model.md): request {@code i} is sent at
 * {@code floor(i * 1e9 / rps)}, by caller {@code i mod callers} as its request number {@code i div callers}, for
 * every {@code i} below the run's request count. Answers both ways, the time of a request and the first request
 * at or after a time, without visiting the requests between, so a stretch of requests is found in a few divisions.
 */
final class SendSchedule {
    private final TrafficSpec traffic;
    private final long durationNanos;
    private final long count;
    private final int callers;

    SendSchedule(Scenario scenario) {
        this.traffic = scenario.traffic();
        this.durationNanos = scenario.durationNanos();
        this.count = traffic.requestsBefore(durationNanos);
        this.callers = traffic.clients();
    }

    /** How many requests the run sends. */
    long count() {
        return count;
    }

    /** The send time of request {@code i}. */
    long timeOf(long i) {
        return traffic.sendTimeNanos(i);
    }

    /** The send time of request {@code i}, or the run's end for {@code i = count}: where request {@code i - 1}'s share ends. */
    long timeOrEnd(long i) {
        return i < count ? traffic.sendTimeNanos(i) : durationNanos;
    }

    /** The first request sent at or after {@code nanos} ({@link #count()} when none is). */
    long firstAtOrAfter(long nanos) {
        if (nanos >= durationNanos) {
            return count;
        }
        return nanos <= 0 ? 0 : traffic.requestsBefore(nanos);
    }

    /** How many of caller {@code c}'s requests come before request {@code i}: its request number at {@code i}. */
    long callerRequestsBefore(int c, long i) {
        return i <= c ? 0 : (i - c - 1) / callers + 1;
    }

    int callers() {
        return callers;
    }
}
