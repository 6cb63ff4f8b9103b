package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A consecutive-error threshold of 1 or 2 with a cap that lets many hosts go: healthy hosts also fail now and
 * then, and a run of one or two failures comes often. At a background error rate of 1 % of independent
 * failures, the expected number of requests to a run of k is {@link Bernoulli#expectedRequestsToRun} (100 for
 * one, 10,100 for two); with a cap of half the cluster or more, a blip shared by several hosts ejects them
 * together.
 */
final class HairTriggerCheck {
    /** The background error rate the finding's numbers assume: independent failures of 1 % of requests. */
    static final double BACKGROUND_ERROR_RATE = 0.01;

    private HairTriggerCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        boolean highCap = hosts != null
                ? hosts >= 2 && 2 * CapArithmetic.maxEjectable(c, hosts) >= hosts
                : c.maxEjectionPercent() >= 50;
        if (!highCap) {
            return;
        }
        for (EjectionType t : List.of(
                EjectionType.CONSECUTIVE_5XX,
                EjectionType.CONSECUTIVE_GATEWAY_FAILURE,
                EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE)) {
            OutlierSetting threshold = Detectors.threshold(t);
            long k = c.get(threshold);
            boolean applies = t != EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE || c.splitExternalLocalOriginErrors();
            if (!applies || !Detectors.canEject(c, t) || k > 2) {
                continue;
            }
            double expected = Bernoulli.expectedRequestsToRun(BACKGROUND_ERROR_RATE, k);
            Map<String, Object> n = new LinkedHashMap<>();
            n.put(threshold.envoyName(), k);
            n.put("max_ejection_percent", c.maxEjectionPercent());
            if (hosts != null) {
                n.put("hosts", (long) hosts);
                n.put("hosts_the_cap_lets_go", (long) CapArithmetic.maxEjectable(c, hosts));
            }
            n.put("background_error_rate_percent", BACKGROUND_ERROR_RATE * 100);
            n.put("expected_requests_to_a_run", Math.round(expected));
            StringBuilder m = new StringBuilder(threshold.envoyName() + " " + k + " ejects a host after "
                    + (k == 1 ? "one failure" : k + " failures in a row")
                    + ", which healthy hosts have too: with 1 % of "
                    + "requests failing at random, a host has " + (k == 1 ? "a failure" : k + " in a row") + " every "
                    + String.format(Locale.ROOT, "%,d", Math.round(expected)) + " requests on average");
            if (hosts != null && rps != null) {
                // each caller's detector counts only the requests it sends
                double perHost = rps / (double) hosts / sink.clients();
                double seconds = expected / perHost;
                n.put("seconds_at_rps_per_host", FindingSink.round(seconds));
                m.append(" (")
                        .append(FindingSink.fmt(FindingSink.round(seconds)))
                        .append(" s at ")
                        .append(FindingSink.fmt(FindingSink.round(perHost)))
                        .append(" requests per second to each host")
                        .append(sink.clients() > 1 ? " from each of " + sink.clients() + " callers)" : ")");
            }
            m.append("; and the cap lets ")
                    .append(
                            hosts != null
                                    ? CapArithmetic.maxEjectable(c, hosts) + " of " + hosts + " hosts"
                                    : c.maxEjectionPercent() + " % of the hosts")
                    .append(" go at once, so a blip shared by " + "several hosts takes them all out");
            sink.add(
                    Rule.HAIR_TRIGGER,
                    Severity.WARNING,
                    m.toString(),
                    n,
                    List.of(new FixStyle.Change("outlier_detection." + threshold.envoyName(), 5, "Envoy's default")),
                    sink.target().line());
        }
    }
}
