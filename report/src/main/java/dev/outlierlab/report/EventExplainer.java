package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.Origin;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.engine.envoy.event.UnejectReason;

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
            case OVERFLOW -> evidence(e.evidence(), e.type()) + "; " + cap(e.cap()) + " -> refused by the cap (overflow)";
            case UNENFORCED -> evidence(e.evidence(), e.type()) + "; " + cap(e.cap()) + "; " + enforcement(e.enforcement(), e.type())
                    + " -> detected, not ejected";
            case EJECT -> evidence(e.evidence(), e.type()) + "; " + cap(e.cap())
                    + (e.enforcement().enforcingPercent() < 100 ? "; " + enforcement(e.enforcement(), e.type()) : "")
                    + " -> ejected for " + ejection(e.ejection());
        };
    }

    /** What the detector of this type saw. */
    public static String evidence(DetectionEvidence evidence, EjectionType type) {
        String local = type.origin() == Origin.LOCAL ? "local-origin " : "";
        if (evidence instanceof SuccessRateEvidence sr) {
            return local + "succeeded " + Numbers.one(sr.hostSuccessRatePercent()) + " % < threshold "
                    + Numbers.one(sr.thresholdPercent()) + " % (mean " + Numbers.one(sr.meanPercent()) + ", stdev "
                    + Numbers.one(sr.stdevPercent()) + ", factor " + (sr.stdevFactor() / 1000.0) + ", "
                    + sr.hostsEvaluated() + " hosts)";
        }
        if (evidence instanceof FailurePercentageEvidence fp) {
            return local + "failed " + Numbers.one(fp.hostFailurePercent()) + " % >= threshold " + fp.thresholdPercent()
                    + " % (" + Numbers.count(fp.hostRequests()) + " requests)";
        }
        ConsecutiveEvidence c = (ConsecutiveEvidence) evidence;
        String what = switch (type) {
            case CONSECUTIVE_GATEWAY_FAILURE -> "consecutive gateway failures (502/503/504)";
            case CONSECUTIVE_LOCAL_ORIGIN_FAILURE -> "consecutive local-origin failures";
            default -> "consecutive 5xx";
        };
        return c.consecutiveErrors() + " " + what + " = threshold " + c.threshold();
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

    /** The enforcing decision, named by the setting that controls it. */
    public static String enforcement(Enforcement en, EjectionType type) {
        String setting = type.enforcingSetting().envoyName() + " " + en.enforcingPercent() + " %";
        if (en.drawMod100() < 0) {
            return setting;
        }
        return setting + ", draw " + en.drawMod100() + (en.enforced() ? " < " : " >= ") + en.enforcingPercent();
    }

    public static String ejection(EjectionTime t) {
        String text = Numbers.seconds(t.durationNanos());
        if (t.jitterNanos() > 0) {
            text += " (" + Numbers.seconds(t.durationNanos() - t.jitterNanos()) + " + jitter " + Numbers.seconds(t.jitterNanos()) + ")";
        }
        return text + ", multiplier " + t.multiplier();
    }
}
