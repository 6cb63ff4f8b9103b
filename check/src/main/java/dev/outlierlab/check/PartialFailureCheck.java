package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How consecutive-error detection meets a host that fails only part of its requests. It holds for evenly
 * spread failures (the lab's fault model, docs/model.md): below an error rate of {@code (n - 1) / n} they
 * never make {@code n} in a row. Random failures do: for independent failures at rate p the expected number
 * of requests to the first run of n is {@link Bernoulli#expectedRequestsToRun}, which the finding gives at
 * 33 % (the default scenario's error rate), and in seconds at {@code --rps} spread over the hosts.
 */
final class PartialFailureCheck {
    /** The error rate the random-failure numbers are given for: the default scenario's 33 %. */
    static final double EXAMPLE_ERROR_RATE = 0.33;

    private PartialFailureCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        // the enforced consecutive detectors: a failing 5xx (503) counts toward both
        long n5xx = Detectors.canEject(c, EjectionType.CONSECUTIVE_5XX) ? c.consecutive5xx() : 0;
        long nGateway =
                Detectors.canEject(c, EjectionType.CONSECUTIVE_GATEWAY_FAILURE) ? c.consecutiveGatewayFailure() : 0;
        long n = n5xx == 0 ? nGateway : nGateway == 0 ? n5xx : Math.min(n5xx, nGateway);
        if (n < 2) {
            return;
        }
        String detector = n == n5xx ? "consecutive_5xx " + n5xx : "consecutive_gateway_failure " + nGateway;
        double blind = largestRateNeverCaught(n);
        Long perCallerRps = rps == null || sink.clients() == 1 ? rps : Long.valueOf(Math.max(1, rps / sink.clients()));
        boolean sr = canJudge(
                hosts,
                perCallerRps,
                c,
                EjectionType.SUCCESS_RATE,
                OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME);
        boolean fp = canJudge(
                hosts,
                perCallerRps,
                c,
                EjectionType.FAILURE_PERCENTAGE,
                OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
        boolean other = sr || fp;
        List<String> others = new ArrayList<>();
        if (sr) {
            others.add("success rate can eject a host whose success rate falls far enough below the others'");
        }
        if (fp) {
            others.add("failure percentage can eject a host failing " + c.failurePercentageThreshold() + " % or more");
        }
        double expected = Bernoulli.expectedRequestsToRun(EXAMPLE_ERROR_RATE, n);
        Map<String, Object> numbers = new LinkedHashMap<>();
        if (n5xx > 0) {
            numbers.put("consecutive_5xx", n5xx);
        }
        if (nGateway > 0) {
            numbers.put("consecutive_gateway_failure", nGateway);
        }
        numbers.put("largest_evenly_spread_error_rate_never_caught_percent", blind);
        numbers.put("random_error_rate_percent", EXAMPLE_ERROR_RATE * 100);
        numbers.put("random_expected_requests_to_a_run", FindingSink.round(expected));
        String when = "";
        if (hosts != null && rps != null) {
            // each caller's detector counts only the requests it sends: its share of the host's
            double perHost = rps / (double) hosts / sink.clients();
            double seconds = expected / perHost;
            numbers.put("requests_per_second_per_host", FindingSink.round(perHost));
            numbers.put("random_expected_seconds_to_a_run", FindingSink.round(seconds));
            when = ", " + FindingSink.fmt(FindingSink.round(seconds)) + " s at "
                    + FindingSink.fmt(FindingSink.round(perHost))
                    + " requests per second to the host"
                    + (sink.clients() > 1 ? " from each of " + sink.clients() + " callers" : "");
        }
        numbers.put("other_detector_can_eject", other);
        String message = detector + " needs " + n + " failures in a row. Failures spread evenly among successes never "
                + "make that at an error rate of " + FindingSink.fmt(blind)
                + " % or less (a host failing 33 % evenly has "
                + "runs of 1); independent random failures do, later: at 33 % a host fails " + n + " in a row after "
                + String.format(Locale.ROOT, "%,d", Math.round(expected)) + " requests on average" + when
                + (other
                        ? ". Besides, " + String.join(", and ", others)
                        : ". No other enforced detector here can eject a partially failing host");
        List<FixStyle.Change> fix = new ArrayList<>();
        if (!other) {
            int minHosts = hosts == null ? 5 : Math.max(1, Math.min(5, hosts));
            fix.add(new FixStyle.Change("outlier_detection.enforcing_failure_percentage", 100));
            fix.add(new FixStyle.Change("outlier_detection.failure_percentage_threshold", 20));
            fix.add(new FixStyle.Change("outlier_detection.failure_percentage_minimum_hosts", minHosts));
        }
        // a note either way: whether it is a blind spot depends on how the failures are spread, which the
        // configuration does not say (random failures are caught, at the cost the numbers give)
        sink.add(Rule.CONSECUTIVE_5XX_MISSES_PARTIAL, Severity.NOTE, message, numbers, fix, target.line());
    }

    /**
     * The largest error rate (percent) at which failures spread evenly among successes (the lab's fault model,
     * docs/model.md) never make {@code n} in a row: (n - 1) / n. Checked against the fault rule in the tests.
     */
    static double largestRateNeverCaught(long n) {
        return FindingSink.round(100.0 * (n - 1) / n);
    }

    /**
     * Whether an interval detector can act at all: enforced, with enough hosts for its minimum, a success-rate
     * factor some cluster of this size (or, without a count, of any plausible size) can reach, and, with
     * {@code --rps}, its request volume.
     */
    static boolean canJudge(
            Integer hosts,
            Long rps,
            OutlierDetectionConfig c,
            EjectionType type,
            OutlierSetting minHosts,
            OutlierSetting volume) {
        if (!Detectors.canEject(c, type)) {
            return false;
        }
        if (hosts != null && hosts < c.get(minHosts)) {
            return false;
        }
        if (type == EjectionType.SUCCESS_RATE
                && hosts != null
                && hosts < SuccessRateFactorCheck.smallestClusterThatCanEject(c.successRateStdevFactor())) {
            return false;
        }
        if (type == EjectionType.SUCCESS_RATE
                && hosts == null
                && c.successRateStdevFactor() >= SuccessRateFactorCheck.ABSURD_FACTOR_THOUSANDTHS) {
            // a factor of 100 or more needs a cluster of 10,000 hosts or more: not one to count on
            return false;
        }
        if (hosts != null && rps != null) {
            BigInteger perHost = BigInteger.valueOf(rps)
                    .multiply(BigInteger.valueOf(c.intervalNanos()))
                    .divide(BigInteger.valueOf(Durations.SECOND))
                    .divide(BigInteger.valueOf(hosts));
            return perHost.compareTo(BigInteger.valueOf(c.get(volume))) >= 0;
        }
        return true;
    }
}
