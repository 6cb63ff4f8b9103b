package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether success rate can eject anything at all at this cluster size. Envoy ejects a host whose success rate
 * is below {@code mean - factor * stdev} (population standard deviation over the hosts with enough requests,
 * {@code factor = success_rate_stdev_factor / 1000}). By Samuelson's inequality no value of N lies more than
 * {@code sqrt(N - 1)} standard deviations from their mean, whatever the failures look like, so with
 * {@code factor >= sqrt(N - 1)} success rate ejects no host among N (equality needs every other host equal,
 * and Envoy's test is strict). A factor in the hundreds or thousands is named as the unit mistake it almost
 * always is: the field is in thousandths, and Kuma's {@code standardDeviationFactor} is multiplied by 1000.
 */
final class SuccessRateFactorCheck {
    /** A factor at or above this (stdev_factor 100000) needs 10,001 hosts: read as a unit mistake. */
    static final long ABSURD_FACTOR_THOUSANDTHS = 100_000;

    private SuccessRateFactorCheck() {}

    /** The smallest number of judged hosts among which success rate can eject one: N - 1 > factor^2. */
    static long smallestClusterThatCanEject(long stdevFactorThousandths) {
        // N - 1 > (sf / 1000)^2  <=>  (N - 1) * 10^6 > sf^2
        BigInteger sf = BigInteger.valueOf(stdevFactorThousandths);
        return sf.multiply(sf).divide(BigInteger.valueOf(1_000_000L)).longValueExact() + 2;
    }

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        if (!Detectors.canEject(c, EjectionType.SUCCESS_RATE)) {
            return;
        }
        long sf = c.successRateStdevFactor();
        long smallest = smallestClusterThatCanEject(sf);
        boolean absurd = sf >= ABSURD_FACTOR_THOUSANDTHS;
        boolean tooFew = hosts != null && hosts < smallest && hosts >= c.successRateMinimumHosts();
        if (!absurd && !tooFew) {
            return;
        }
        double factor = sf / 1000.0;
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("success_rate_stdev_factor", sf);
        n.put("factor", factor);
        if (hosts != null) {
            n.put("hosts", (long) hosts);
            n.put("sqrt_hosts_minus_1", FindingSink.round(Math.sqrt(hosts - 1.0)));
        }
        n.put("smallest_cluster_that_can_eject", smallest);
        StringBuilder m =
                new StringBuilder("success_rate_stdev_factor " + sf + " is a factor of " + FindingSink.fmt(factor)
                        + ": Envoy ejects below mean - " + FindingSink.fmt(factor)
                        + " x stdev, and no host's success rate can be "
                        + "more than sqrt(N - 1) standard deviations below the mean of N hosts (Samuelson's inequality), so success "
                        + "rate ejects nothing in a cluster of fewer than "
                        + String.format(Locale.ROOT, "%,d", smallest)
                        + " hosts, whatever the failures");
        if (hosts != null) {
            m.append("; this one has ")
                    .append(hosts)
                    .append(" (sqrt(")
                    .append(hosts - 1)
                    .append(") = ")
                    .append(FindingSink.fmt(Math.sqrt(hosts - 1.0)))
                    .append(')');
        }
        List<FixStyle.Change> fix = new ArrayList<>();
        if (absurd) {
            long meant = sf / 1000;
            n.put("likely_meant_stdev_factor", meant);
            m.append(". The field is in thousandths (1900 means 1.9); ")
                    .append(sf)
                    .append(" looks like ")
                    .append(meant)
                    .append(" multiplied by 1000 once too often, as Kuma's standardDeviationFactor ")
                    .append(meant)
                    .append(" becomes (Kuma multiplies it by 1000)");
            fix.add(new FixStyle.Change(
                    "outlier_detection.success_rate_stdev_factor",
                    meant,
                    "a factor of " + FindingSink.fmt(meant / 1000.0)));
        } else if (hosts >= 5) {
            fix.add(new FixStyle.Change(
                    "outlier_detection.success_rate_stdev_factor",
                    1900,
                    "Envoy's default, a factor of 1.9 < sqrt(" + (hosts - 1) + ")"));
        } else {
            fix.add(new FixStyle.Change(
                    "outlier_detection.enforcing_failure_percentage",
                    100,
                    "with " + hosts + " hosts, judge each host on its own failure share"));
            fix.add(new FixStyle.Change("outlier_detection.failure_percentage_minimum_hosts", hosts));
        }
        sink.add(
                Rule.SUCCESS_RATE_CANNOT_EJECT,
                Chosen.severity(c, EjectionType.SUCCESS_RATE),
                m.toString(),
                n,
                fix,
                sink.target().line());
    }
}
