package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.Origin;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OrderNote;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;

/**
 * Says in words and numbers what the detector saw and decided, e.g. {@code 40 s: host-0 succeeded 67.0 % <
 * threshold 71.1 % (mean 94.5, stdev 12.3, factor 1.9); cap (0+1)/6 = 16.7 % <= 34 % -> ejected for 30 s}.
 */
public final class EventExplainer {
    private EventExplainer() {}

    /** The full sentence, starting with the time. */
    public static String explain(OutlierEvent e) {
        return Numbers.seconds(e.timeNanos()) + ": " + e.host() + " " + reason(e);
    }

    /** The sentence without time and host. */
    public static String reason(OutlierEvent e) {
        return decision(e) + secondOffer(e) + orderNote(e.orderNote());
    }

    private static String decision(OutlierEvent e) {
        return switch (e.action()) {
            case UNEJECT ->
                switch (e.uneject()) {
                    case ACTIVE_HEALTH_CHECK ->
                        "returned by a passing active health check after " + Numbers.seconds(e.outForNanos()) + " out";
                    case FAILING_ACTIVE_HEALTH_CHECK ->
                        "returned by a failing active health check after "
                                + Numbers.seconds(e.outForNanos())
                                + " out (Envoy before 1.31: the check-complete callback"
                                + " ignored the check's result while the host was not yet failed by active checking)";
                    case EJECTION_TIME_ELAPSED ->
                        "returned to rotation after " + Numbers.seconds(e.outForNanos()) + " out";
                };
            case OVERFLOW ->
                evidence(e.evidence(), e.type()) + "; " + cap(e.cap()) + " -> refused by the cap (overflow)";
            case UNENFORCED ->
                evidence(e.evidence(), e.type()) + "; " + cap(e.cap()) + "; " + enforcement(e.enforcement(), e.type())
                        + " -> detected, not ejected";
            case EJECT ->
                evidence(e.evidence(), e.type()) + "; " + cap(e.cap())
                        + (e.enforcement().enforcingPercent() < 100
                                ? "; " + enforcement(e.enforcement(), e.type())
                                : "")
                        + " -> ejected for " + ejection(e.ejection());
        };
    }

    /**
     * Envoy's double offer: failure percentage offering a host that success rate ejected earlier in the same tick.
     */
    private static String secondOffer(OutlierEvent e) {
        if (!e.alreadyEjected()) {
            return "";
        }
        String head = "; offered again though success rate ejected it in this tick (Envoy builds the failure-percentage"
                + " list before that ejection and does not check again)";
        return switch (e.action()) {
            case EJECT ->
                head + ": ejected a second time, so ejections_active counts it twice and, when it returns"
                        + " (once), stays one too high until Envoy restarts; its multiplier grew twice";
            case OVERFLOW -> head + ": the cap refused it, an overflow for a host already out";
            default -> head;
        };
    }

    /** Where Envoy's unspecified host order could have decided differently. */
    private static String orderNote(OrderNote note) {
        if (note == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        if (!note.capContenders().isEmpty()) {
            out.append("; order: ")
                    .append(String.join(", ", note.capContenders()))
                    .append(" competed for too few places under the cap; the lab takes hosts in list order, Envoy in"
                            + " its hash map's order, which is unspecified: Envoy may have ejected another of them");
        }
        if (!note.borderline().isEmpty()) {
            out.append("; order: the success rate of ")
                    .append(String.join(", ", note.borderline()))
                    .append(" is within rounding of the threshold, and Envoy sums the rates in its hash map's order,"
                            + " which is unspecified: Envoy may judge it the other way");
        }
        return out.toString();
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

    /**
     * The cap's arithmetic: {@code cap (0+1)/6 = 16.7 % <= 34 %}; for releases before 1.28 the rule of that release,
     * e.g. {@code cap 0/6 = 0.0 % < 10 % (Envoy 1.26)}.
     */
    public static String cap(CapCheck cap) {
        long max = Math.min(cap.maxEjectionPercent(), 100);
        if (cap.rule() == CapRule.ACTIVE_BELOW_MAX) {
            return "cap " + cap.ejectedBefore() + "/" + cap.hosts() + " = " + Numbers.one(cap.percentIfEjected())
                    + " % "
                    + (cap.percentIfEjected() < max ? "<" : ">=") + " " + cap.maxEjectionPercent()
                    + " % (Envoy 1.26 and before: the hosts already out)";
        }
        String arithmetic =
                "cap (" + cap.ejectedBefore() + "+1)/" + cap.hosts() + " = " + Numbers.one(cap.percentIfEjected())
                        + " % " + (cap.percentIfEjected() <= max ? "<=" : ">") + " " + cap.maxEjectionPercent() + " %";
        if (cap.allowed() && cap.percentIfEjected() > max) {
            arithmetic += cap.rule() == CapRule.FIRST_ALWAYS
                    ? ", admitted as the first ejection (Envoy before 1.28 always allowed it)"
                    : ", admitted by always_eject_one_host";
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
            text += " (" + Numbers.seconds(t.durationNanos() - t.jitterNanos()) + " + jitter "
                    + Numbers.seconds(t.jitterNanos()) + ")";
        }
        return text + ", multiplier " + t.multiplier();
    }
}
