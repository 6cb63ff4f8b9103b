package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;

/**
 * One sentence per decision of the gRPC profile, in gRPC's terms: the algorithm's numbers, the cap as the
 * implementation tests it ({@code ejected % >= max} stops grpc-java and grpc-go; C-core always lets the first
 * ejection through), the enforcement draw, how long the endpoint is out and when the sweeps can return it.
 */
public final class GrpcExplainer {
    private GrpcExplainer() {}

    public static String explain(OutlierEvent e, GrpcOutlierConfig c) {
        return Numbers.seconds(e.timeNanos()) + ": " + e.host() + " " + reason(e, c);
    }

    /** The sentence without time and host. */
    public static String reason(OutlierEvent e, GrpcOutlierConfig c) {
        GrpcImplementation impl = c.implementation();
        return switch (e.action()) {
            case UNEJECT ->
                "returned at the first sweep more than its ejection time after it left, after "
                        + Numbers.seconds(e.outForNanos()) + " out";
            case OVERFLOW ->
                evidence(e.evidence()) + "; " + cap(e.cap(), impl)
                        + (impl == GrpcImplementation.CORE
                                ? " -> refused by the cap"
                                : " -> " + impl.label() + " stops at the cap and never tests this endpoint"
                                        + " (the lab does, to show what the cap held back)")
                        + second(e, impl);
            case UNENFORCED ->
                evidence(e.evidence()) + "; " + cap(e.cap(), impl) + "; " + enforcement(e.enforcement(), impl)
                        + " -> detected, not ejected" + second(e, impl);
            case EJECT ->
                evidence(e.evidence()) + "; " + cap(e.cap(), impl)
                        + (e.enforcement().enforcingPercent() < 100 ? "; " + enforcement(e.enforcement(), impl) : "")
                        + " -> ejected for " + Numbers.seconds(e.ejection().durationNanos()) + ", multiplier "
                        + e.ejection().multiplier() + " (back at the first sweep after "
                        + Numbers.seconds(e.timeNanos() + e.ejection().durationNanos()) + ")" + second(e, impl);
        };
    }

    private static String evidence(DetectionEvidence evidence) {
        if (evidence instanceof SuccessRateEvidence sr) {
            return "succeeded " + Numbers.one(sr.hostSuccessRatePercent()) + " % < required "
                    + Numbers.one(sr.thresholdPercent()) + " % (mean " + Numbers.one(sr.meanPercent()) + ", stdev "
                    + Numbers.one(sr.stdevPercent()) + ", factor " + (sr.stdevFactor() / 1000.0) + ", "
                    + sr.hostsEvaluated() + " endpoints with " + "the volume)";
        }
        FailurePercentageEvidence fp = (FailurePercentageEvidence) evidence;
        return "failed " + Numbers.one(fp.hostFailurePercent()) + " % > threshold " + fp.thresholdPercent() + " % ("
                + Numbers.count(fp.hostRequests()) + " calls)";
    }

    private static String cap(CapCheck cap, GrpcImplementation impl) {
        String figures =
                "cap " + cap.ejectedBefore() + "/" + cap.hosts() + " = " + Numbers.one(cap.percentIfEjected()) + " %";
        if (impl == GrpcImplementation.CORE) {
            return figures
                    + (cap.ejectedBefore() == 0
                            ? ", the first ejection (always allowed)"
                            : (cap.allowed() ? " < " : " >= ") + cap.maxEjectionPercent() + " %");
        }
        return figures + (cap.allowed() ? " < " : " >= ") + cap.maxEjectionPercent() + " %";
    }

    private static String enforcement(Enforcement en, GrpcImplementation impl) {
        String setting = "enforcement_percentage " + en.enforcingPercent() + " %";
        if (en.drawMod100() < 0) {
            return setting
                    + (impl == GrpcImplementation.CORE && en.enforcingPercent() == 1
                            ? " (C-core draws 1 to 99, so 1 never ejects)"
                            : "");
        }
        return setting + ", draw " + en.drawMod100() + (en.enforced() ? " < " : " >= ") + en.enforcingPercent();
    }

    private static String second(OutlierEvent e, GrpcImplementation impl) {
        if (!e.alreadyEjected()) {
            return "";
        }
        return "; already ejected by success rate in this sweep: " + impl.label() + " runs failure percentage over"
                + " every endpoint with the volume, so it is ejected a second time and its multiplier grew twice"
                + (impl == GrpcImplementation.GO
                        ? "; grpc-go's count of ejected endpoints stays one too high after it" + " returns"
                        : "");
    }
}
