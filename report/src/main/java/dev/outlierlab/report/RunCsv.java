package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.sim.RunResult;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * A run's decisions as CSV ({@code run --format csv}), one row per decision with the numbers Envoy's
 * {@code DetectorImpl} decided on: the detector's evidence, the cap's arithmetic, the enforcing draw and the
 * ejection time. Empty fields where a decision has no such number (a return has no evidence). RFC 4180: a header
 * row, fields quoted when they hold a comma, a quote or a line break, lines ending in LF as in sweep --format csv.
 */
public final class RunCsv {
    /** The header row's columns, in order. */
    public static final List<String> COLUMNS = List.of(
            "time_s",
            "time_ns",
            "client",
            "host",
            "action",
            "type",
            "success_rate_percent",
            "threshold_percent",
            "mean_percent",
            "stdev_percent",
            "failure_percent",
            "host_requests",
            "consecutive",
            "consecutive_threshold",
            "cap_ejected_before",
            "cap_hosts",
            "cap_percent_if_ejected",
            "max_ejection_percent",
            "cap_allowed",
            "enforcing_percent",
            "draw",
            "ejection_ns",
            "multiplier",
            "out_for_ns");

    private RunCsv() {}

    /** Every decision the run kept, with the header row first. */
    public static String render(RunResult r) {
        StringBuilder out = new StringBuilder(String.join(",", COLUMNS)).append("\n");
        List<OutlierEvent> events = r.events();
        for (int i = 0; i < events.size(); i++) {
            OutlierEvent e = events.get(i);
            Object[] f = new Object[COLUMNS.size()];
            f[0] = BigDecimal.valueOf(e.timeNanos(), 9).stripTrailingZeros().toPlainString();
            f[1] = e.timeNanos();
            f[2] = r.clients() > 1 ? r.clientOf(i) : null;
            f[3] = e.host();
            f[4] = e.action().jsonName();
            f[5] = e.type() == null ? null : e.type().statSuffix();
            if (e.evidence() instanceof SuccessRateEvidence sr) {
                f[6] = decimal(sr.hostSuccessRatePercent());
                f[7] = decimal(sr.thresholdPercent());
                f[8] = decimal(sr.meanPercent());
                f[9] = decimal(sr.stdevPercent());
                f[11] = sr.hostRequests();
            } else if (e.evidence() instanceof FailurePercentageEvidence fp) {
                f[10] = decimal(fp.hostFailurePercent());
                f[7] = fp.thresholdPercent();
                f[11] = fp.hostRequests();
            } else if (e.evidence() instanceof ConsecutiveEvidence c) {
                f[12] = c.consecutiveErrors();
                f[13] = c.threshold();
            }
            CapCheck cap = e.cap();
            if (cap != null) {
                f[14] = cap.ejectedBefore();
                f[15] = cap.hosts();
                f[16] = decimal(cap.percentIfEjected());
                f[17] = cap.maxEjectionPercent();
                f[18] = cap.allowed();
            }
            if (e.enforcement() != null) {
                f[19] = e.enforcement().enforcingPercent();
                f[20] = e.enforcement().drawMod100() < 0
                        ? null
                        : e.enforcement().drawMod100();
            }
            if (e.ejection() != null) {
                f[21] = e.ejection().durationNanos();
                f[22] = e.ejection().multiplier();
            }
            f[23] = e.action() == EventAction.UNEJECT ? e.outForNanos() : null;
            row(out, f);
        }
        return out.toString();
    }

    /** Appends one CSV row. */
    public static void row(StringBuilder out, Object... fields) {
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(field(fields[i]));
        }
        out.append("\n");
    }

    /** A field, quoted when it must be; null is empty. */
    public static String field(Object value) {
        if (value == null) {
            return "";
        }
        String s = value.toString();
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    private static String decimal(double d) {
        return String.format(Locale.ROOT, "%.4f", d);
    }
}
