package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Rule#LONG_EJECTION}: a base ejection time of 10 minutes or more. Envoy keeps an ejected host out for
 * {@code base_ejection_time x multiplier} (capped at {@code max_ejection_time}), and returns it only at an
 * interval tick ({@code DetectorImpl::checkHostForUneject} in envoyproxy/envoy
 * {@code source/common/upstream/outlier_detection_impl.cc}, as the engine models it), so a
 * blip that ejects hosts costs their capacity for that long even when they recovered at once. A note from 10
 * minutes, a warning from 1 hour.
 */
final class LongEjectionCheck {
    private static final long NOTE_FROM = 10 * 60 * Durations.SECOND;
    private static final long WARNING_FROM = 60 * 60 * Durations.SECOND;

    private LongEjectionCheck() {}

    /** 4 h, 15 min, 90 s. */
    static String human(long nanos) {
        long s = nanos / Durations.SECOND;
        if (s % 3600 == 0) {
            return s / 3600 + " h";
        }
        return s % 60 == 0 ? s / 60 + " min" : s + " s";
    }

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        long base = c.baseEjectionTimeNanos();
        if (base < NOTE_FROM) {
            return;
        }
        long max = c.maxEjectionTimeNanos();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("base_ejection_time_seconds", Durations.toSeconds(base));
        n.put("max_ejection_time_seconds", Durations.toSeconds(max));
        n.put("max_ejection_percent", c.maxEjectionPercent());
        Long out =
                hosts == null ? null : Math.max(c.alwaysEjectOneHost() ? 1 : 0, hosts * c.maxEjectionPercent() / 100);
        n.put("hosts_that_can_be_out", out);
        sink.add(
                Rule.LONG_EJECTION,
                base >= WARNING_FROM ? Severity.WARNING : Severity.NOTE,
                "base_ejection_time " + Durations.format(base) + " (" + human(base) + "): a host ejected once is "
                        + "out for at least that long"
                        + (max > base
                                ? " (longer after repeated ejections, up to " + "max_ejection_time "
                                        + Durations.format(max) + ")"
                                : "")
                        + ", even if it recovered a second "
                        + "later, and Envoy returns it only at an interval tick; one blip shared by several hosts costs "
                        + (out == null
                                ? "up to " + c.maxEjectionPercent() + " % of the cluster"
                                : out + (out == 1 ? " host" : " hosts") + " (" + c.maxEjectionPercent() + " % of "
                                        + hosts + ")")
                        + " of capacity for that long",
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.base_ejection_time",
                        "30s",
                        "repeated ejections still back off: the time grows with each one")),
                sink.target().line());
    }
}
