package dev.outlierlab.report;

import dev.outlierlab.engine.event.CapCheck;
import dev.outlierlab.engine.event.ConsecutiveEvidence;
import dev.outlierlab.engine.event.DetectionEvidence;
import dev.outlierlab.engine.event.EjectionTime;
import dev.outlierlab.engine.event.Enforcement;
import dev.outlierlab.engine.event.FailurePercentageEvidence;
import dev.outlierlab.engine.event.OutlierEvent;
import dev.outlierlab.engine.event.SuccessRateEvidence;
import dev.outlierlab.engine.event.UnejectReason;

/**
 * Says in words and numbers what the detector saw and decided, e.g. {@code 40 s: host-0 succeeded 67.0 % <
 * threshold 71.1 % (mean 94.5, stdev 12.3, factor 1.9); cap (0+1)/6 = 16.7 % <= 34 % -> ejected for 30 s}.
 */
public final class EventExplainer {
    private EventExplainer() {
    }

    /** The full sentence, starting with the time. */
    public static String explain(OutlierEvent e) {
        return Numbers.seconds(e.timeNanos()) + ": " + e.host() + " " + reason(e);
    }

    /** The sentence without time and host. */
    public static String reason(OutlierEvent e) {
        return switch (e.action()) {
            case UNEJECT -> e.uneject() == UnejectReason.ACTIVE_HEALTH_CHECK
                    ? "returned by a passing active health check after " + Numbers.seconds(e.outForNanos()) + " out"
                    : "returned to rotation after " + Numbers.seconds(e.outForNanos()) + " out";
            case OVERFLOW -> evidence(e.evidence()) + "; " + cap(e.cap()) + " -> refused by the cap (overflow)";
            case UNENFORCED -> evidence(e.evidence()) + "; " + cap(e.cap()) + "; " + enforcement(e.enforcement())
                    + " -> detected, not ejected";
            case EJECT -> evidence(e.evidence()) + "; " + cap(e.cap())
                    + (e.enforcement().enforcingPercent() < 100 ? "; " + enforcement(e.enforcement()) : "")
                    + " -> ejected for " + ejection(e.ejection());
        };
    }

    /** What the detector saw. */
    public static String evidence(DetectionEvidence evidence) {
        if (evidence instanceof SuccessRateEvidence sr) {
            return "succeeded " + Numbers.one(sr.hostSuccessRatePercent()) + " % < threshold "
                    + Numbers.one(sr.thresholdPercent()) + " % (mean " + Numbers.one(sr.meanPercent()) + ", stdev "
                    + Numbers.one(sr.stdevPercent()) + ", factor " + (sr.stdevFactor() / 1000.0) + ", "
                    + sr.hostsEvaluated() + " hosts)";
        }
        if (evidence instanceof FailurePercentageEvidence fp) {
            return "failed " + Numbers.one(fp.hostFailurePercent()) + " % >= threshold " + fp.thresholdPercent()
                    + " % (" + Numbers.count(fp.hostRequests()) + " requests)";
        }
        ConsecutiveEvidence c = (ConsecutiveEvidence) evidence;
        return c.consecutiveErrors() + " consecutive errors = threshold " + c.threshold();
    }

    /** The cap's arithmetic: {@code cap (0+1)/6 = 16.7 % <= 34 %}. */
    public static String cap(CapCheck cap) {
        String arithmetic = "cap (" + cap.ejectedBefore() + "+1)/" + cap.hosts() + " = " + Numbers.one(cap.percentIfEjected())
                + " % " + (cap.percentIfEjected() <= Math.min(cap.maxEjectionPercent(), 100) ? "<=" : ">") + " "
                + cap.maxEjectionPercent() + " %";
        if (cap.allowed() && cap.percentIfEjected() > Math.min(cap.maxEjectionPercent(), 100)) {
            arithmetic += ", admitted by always_eject_one_host";
        }
        return arithmetic;
    }

    public static String enforcement(Enforcement en) {
        if (en.drawMod100() < 0) {
            return "enforcing " + en.enforcingPercent() + " %";
        }
        return "enforcing " + en.enforcingPercent() + " %, draw " + en.drawMod100()
                + (en.enforced() ? " < " : " >= ") + en.enforcingPercent();
    }

    public static String ejection(EjectionTime t) {
        String text = Numbers.seconds(t.durationNanos());
        if (t.jitterNanos() > 0) {
            text += " (" + Numbers.seconds(t.durationNanos() - t.jitterNanos()) + " + jitter " + Numbers.seconds(t.jitterNanos()) + ")";
        }
        return text + ", multiplier " + t.multiplier();
    }
}
