package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The partial-failure blind spot of consecutive-error detection: failures spread among successes (the lab's
 * fault model) never make {@code n} in a row below an error rate of {@code (n - 1) / n}.
 */
final class PartialFailureCheck {
    private PartialFailureCheck() {
    }

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        // the enforced consecutive detectors: a failing 5xx (503) counts toward both
        long n5xx = c.enforcingPercent(EjectionType.CONSECUTIVE_5XX) > 0 ? c.consecutive5xx() : 0;
        long nGateway = c.enforcingPercent(EjectionType.CONSECUTIVE_GATEWAY_FAILURE) > 0
                ? c.consecutiveGatewayFailure() : 0;
        long n = n5xx == 0 ? nGateway : nGateway == 0 ? n5xx : Math.min(n5xx, nGateway);
        if (n < 2) {
            return;
        }
        String detector = n == n5xx ? "consecutive_5xx " + n5xx : "consecutive_gateway_failure " + nGateway;
        double blind = largestRateNeverCaught(n);
        boolean other = canJudge(hosts, rps, c, EjectionType.SUCCESS_RATE, OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME)
                || canJudge(hosts, rps, c, EjectionType.FAILURE_PERCENTAGE, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                        OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
        Map<String, Object> numbers = new LinkedHashMap<>();
        if (n5xx > 0) {
            numbers.put("consecutive_5xx", n5xx);
        }
        if (nGateway > 0) {
            numbers.put("consecutive_gateway_failure", nGateway);
        }
        numbers.put("largest_error_rate_never_caught_percent", blind);
        numbers.put("other_detector_can_eject", other);
        String message = detector + " cannot catch a host that fails " + FindingSink.fmt(blind) + " % of its requests or "
                + "fewer, spread among successes: it never has " + n + " failures in a row (a host failing 33 % has "
                + "runs of 1)" + (other ? "; success rate or failure percentage has to catch it"
                : ", and no other detector here can eject it");
        List<FixStyle.Change> fix = new ArrayList<>();
        if (!other) {
            int minHosts = hosts == null ? 5 : Math.max(1, Math.min(5, hosts));
            fix.add(new FixStyle.Change("outlier_detection.enforcing_failure_percentage", 100));
            fix.add(new FixStyle.Change("outlier_detection.failure_percentage_threshold", 20));
            fix.add(new FixStyle.Change("outlier_detection.failure_percentage_minimum_hosts", minHosts));
        }
        sink.add(Rule.CONSECUTIVE_5XX_MISSES_PARTIAL, other ? Severity.NOTE : Severity.WARNING, message, numbers, fix,
                target.line());
    }

    /**
     * The largest error rate (percent) at which failures spread evenly among successes (the lab's fault model,
     * spec section 5) never make {@code n} in a row: (n - 1) / n. Checked against the fault rule in the tests.
     */
    static double largestRateNeverCaught(long n) {
        return FindingSink.round(100.0 * (n - 1) / n);
    }

    private static boolean canJudge(Integer hosts, Long rps, OutlierDetectionConfig c, EjectionType type, OutlierSetting minHosts, OutlierSetting volume) {
        if (c.enforcingPercent(type) == 0) {
            return false;
        }
        if (hosts != null && hosts < c.get(minHosts)) {
            return false;
        }
        if (hosts != null && rps != null) {
            BigInteger perHost = BigInteger.valueOf(rps).multiply(BigInteger.valueOf(c.intervalNanos()))
                    .divide(BigInteger.valueOf(Durations.SECOND)).divide(BigInteger.valueOf(hosts));
            return perHost.compareTo(BigInteger.valueOf(c.get(volume))) >= 0;
        }
        return true;
    }

}
