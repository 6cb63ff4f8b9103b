package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the interval timer does to ejections. Envoy returns ejected hosts only in its interval callback
 * ({@code onIntervalTimer}: a host goes back at the first tick at least {@code base_ejection_time x multiplier}
 * after its ejection), so an interval longer than the ejection time stretches every ejection to the tick; and
 * each tick lowers the multiplier of a host that has been back for an interval, so a very short interval
 * undoes backoff within a second, while success rate and failure percentage must find their request volume
 * within that short window.
 */
final class IntervalCheck {
    /** Intervals below this are "very short". */
    static final long SHORT_NANOS = Durations.SECOND;

    private IntervalCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        long interval = c.intervalNanos();
        long base = c.baseEjectionTimeNanos();
        if (interval > base) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("interval_seconds", Durations.toSeconds(interval));
            n.put("base_ejection_time_seconds", Durations.toSeconds(base));
            n.put("ejection_at_a_tick_lasts_seconds", Durations.toSeconds(interval));
            n.put("ejection_between_ticks_lasts_up_to_seconds", Durations.toSeconds(interval + base));
            sink.add(
                    Rule.INTERVAL_LONGER_THAN_EJECTION,
                    Severity.WARNING,
                    "interval " + Durations.format(interval)
                            + " is longer than base_ejection_time " + Durations.format(base)
                            + ": Envoy returns a host only at an "
                            + "interval tick, so an ejection lasts until the first tick at least "
                            + Durations.format(base)
                            + " later: " + Durations.format(interval)
                            + " for a host ejected at a tick (success rate, failure "
                            + "percentage), from " + Durations.format(base) + " to just under "
                            + Durations.format(interval + base)
                            + " for one ejected between ticks (consecutive errors)",
                    n,
                    List.of(new FixStyle.Change(
                            "outlier_detection.interval",
                            Durations.format(base),
                            "or base_ejection_time: " + Durations.format(interval))),
                    sink.target().line());
        }
        if (interval < SHORT_NANOS) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("interval_seconds", Durations.toSeconds(interval));
            StringBuilder m = new StringBuilder("interval " + Durations.format(interval) + " is very short: a returned "
                    + "host's ejection multiplier drops by one at every tick once it has been back an interval, so "
                    + "backoff for a host that fails again is gone within a few " + Durations.format(interval)
                    + " ticks");
            boolean sr = Detectors.canEject(c, EjectionType.SUCCESS_RATE);
            boolean fp = Detectors.canEject(c, EjectionType.FAILURE_PERCENTAGE);
            if (sr || fp) {
                long volume = sr ? c.successRateRequestVolume() : c.failurePercentageRequestVolume();
                // volume requests within one interval: volume * 1e9 / interval requests per second to each host
                long perHostRps = (long) Math.ceil(volume * (double) Durations.SECOND / interval);
                n.put(sr ? "success_rate_request_volume" : "failure_percentage_request_volume", volume);
                n.put("requests_per_second_per_host_needed", perHostRps);
                m.append("; and ")
                        .append(sr ? "success rate" : "failure percentage")
                        .append(" judges a host only with ")
                        .append(volume)
                        .append(" requests within one interval, ")
                        .append(perHostRps)
                        .append(" requests per second to every host");
            }
            sink.add(
                    Rule.INTERVAL_VERY_SHORT,
                    Severity.NOTE,
                    m.toString(),
                    n,
                    List.of(),
                    sink.target().line());
        }
    }
}
