package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Rule#SUCCESS_RATE_FAILURE_PERCENTAGE_DOUBLE_OFFER}: where success rate and failure percentage both enforce,
 * a host that is an outlier to both in one interval is offered twice. A warning when the cap can admit the second
 * offer (a second host's place: then the gauge leaks), a note when it cannot (only a spurious overflow).
 */
final class DoubleOfferCheck {
    private DoubleOfferCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        // both detectors must be able to act: a success rate that can never eject (a factor out of reach, fewer
        // hosts than its minimum) offers nothing, so there is no second offer to speak of
        if (!PartialFailureCheck.canJudge(
                        hosts,
                        rps,
                        c,
                        EjectionType.SUCCESS_RATE,
                        OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                        OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME)
                || !PartialFailureCheck.canJudge(
                        hosts,
                        rps,
                        c,
                        EjectionType.FAILURE_PERCENTAGE,
                        OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                        OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME)) {
            return;
        }
        boolean secondFits = hosts == null || CapArithmetic.capAllows(c, 1, hosts, sink.version());
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("enforcing_success_rate", c.enforcingPercent(EjectionType.SUCCESS_RATE));
        n.put("enforcing_failure_percentage", c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE));
        n.put("failure_percentage_threshold", c.failurePercentageThreshold());
        n.put("cap_admits_second_offer", hosts == null ? null : secondFits);
        String message = "success rate and failure percentage both enforce: a host that fails at least "
                + c.failurePercentageThreshold() + " % of its requests and is also below the success-rate threshold "
                + "is offered twice in the same interval (Envoy builds both lists before ejecting). "
                + (secondFits
                        ? "If the cap admits the second offer"
                                + (hosts == null ? " (it does once another host " + "could go; pass --hosts N)" : "")
                                + ", the host is ejected twice: ejections_active counts it "
                                + "twice and stays one too high after it returns, so the cap admits one host fewer until Envoy "
                                + "restarts"
                        : "The cap refuses the second offer, so it only adds an overflow for a host already out");
        sink.add(
                Rule.SUCCESS_RATE_FAILURE_PERCENTAGE_DOUBLE_OFFER,
                secondFits ? Severity.WARNING : Severity.NOTE,
                message,
                n,
                secondFits
                        ? List.of(
                                new FixStyle.Change(
                                        "outlier_detection.enforcing_failure_percentage",
                                        0,
                                        "or enforcing_success_rate: 0; one enforcing interval detector avoids the double offer"))
                        : List.of(),
                sink.target().line());
    }
}
