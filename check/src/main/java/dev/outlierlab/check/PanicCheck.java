package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.PanicRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Panic-mode findings: a cap that lets ejections push the healthy share below {@code healthy_panic_threshold}
 * (then Envoy sends traffic to ejected hosts too), and panic disabled with a cap that can eject every host.
 * Panic is decided by {@link PanicRule}, the rule the simulator's balancer uses: Envoy's load balancer
 * ({@code recalculatePerPriorityPanic}) is never in panic while 140 % of the healthy share reaches 100 %, so a
 * threshold above 71.4 % acts as 71.4 %.
 */
final class PanicCheck {
    private PanicCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, FindingSink sink) {
        CheckTarget target = sink.target();
        double panic = target.panicThresholdPercent();
        long factor = target.routing().overprovisioningFactor();
        String inPanic = target.routing().failTrafficOnPanic()
                ? "routes to no host (zone_aware_lb_config.fail_traffic_on_panic): every request fails"
                : "sends traffic to every host, ejected ones included";
        long max = Math.min(c.maxEjectionPercent(), 100);
        if (panic > 0) {
            if (hosts != null) {
                int ejectable = CapArithmetic.maxEjectable(c, hosts, sink.version());
                int firstPanic = firstPanic(hosts, ejectable, panic, factor);
                if (firstPanic < 0) {
                    return;
                }
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("hosts", (long) hosts);
                n.put("max_ejection_percent", c.maxEjectionPercent());
                n.put("hosts_the_cap_lets_go", (long) ejectable);
                n.put("healthy_panic_threshold", panic);
                n.put("ejections_that_trigger_panic", (long) firstPanic);
                n.put("healthy_percent_then", FindingSink.round(100.0 * (hosts - firstPanic) / hosts));
                long safe = largestSafePercent(c, hosts, panic, factor, sink.version());
                sink.add(
                        Rule.CAP_ALLOWS_PANIC,
                        Severity.WARNING,
                        "the cap lets " + ejectable + " of " + hosts + " hosts be "
                                + "ejected, but after " + firstPanic + " only "
                                + FindingSink.fmt(100.0 * (hosts - firstPanic) / hosts)
                                + " % are healthy (" + factor
                                + " % of that, Envoy's availability, is under 100 %) and below "
                                + "healthy_panic_threshold " + FindingSink.fmt(panic)
                                + " %: Envoy enters panic mode and "
                                + inPanic,
                        n,
                        List.of(new FixStyle.Change(
                                "outlier_detection.max_ejection_percent",
                                safe,
                                "lets "
                                        + CapArithmetic.maxEjectable(
                                                c.toBuilder()
                                                        .set(OutlierSetting.MAX_EJECTION_PERCENT, safe)
                                                        .set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, false)
                                                        .build(),
                                                hosts)
                                        + " of " + hosts
                                        + " hosts go, without panic")),
                        target.line());
                return;
            }
            // Without a host count: ejecting max % leaves 100 - max % healthy, in panic only where that is below
            // both the threshold and 100 / 1.4 = 71.4 % (Envoy's overprovisioning factor 140).
            double effective = Math.min(PanicRule.of(panic).thresholdPercent(), 100.0 * 100 / factor);
            if (max > 100 - effective) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("max_ejection_percent", c.maxEjectionPercent());
                n.put("healthy_panic_threshold", panic);
                n.put("effective_panic_threshold", FindingSink.round(effective));
                long safe = (long) Math.floor(100 - effective);
                boolean capped = effective < panic;
                sink.add(
                        Rule.CAP_ALLOWS_PANIC,
                        Severity.WARNING,
                        "max_ejection_percent " + max + " is above 100 - "
                                + (capped
                                        ? FindingSink.fmt(FindingSink.round(effective)) + " (healthy_panic_threshold "
                                                + FindingSink.fmt(panic) + " acts as "
                                                + FindingSink.fmt(FindingSink.round(effective))
                                                + ": Envoy's load balancer is never in panic while " + factor
                                                + " % of the healthy share "
                                                + "reaches 100 %)"
                                        : "healthy_panic_threshold " + FindingSink.fmt(panic))
                                + ": ejections alone can leave fewer than "
                                + FindingSink.fmt(FindingSink.round(effective))
                                + " % of hosts healthy, and then Envoy's panic mode "
                                + (target.routing().failTrafficOnPanic()
                                        ? inPanic
                                        : "sends traffic to ejected hosts too"),
                        n,
                        List.of(new FixStyle.Change("outlier_detection.max_ejection_percent", safe)),
                        target.line());
            }
            return;
        }
        boolean all = hosts != null ? CapArithmetic.maxEjectable(c, hosts, sink.version()) == hosts : max >= 100;
        if (!all) {
            return;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        if (hosts != null) {
            n.put("hosts", (long) hosts);
        }
        n.put("max_ejection_percent", c.maxEjectionPercent());
        n.put("healthy_panic_threshold", panic);
        List<FixStyle.Change> fix = new ArrayList<>();
        long keepHalf = hosts != null ? largestPercentKeepingHalf(c, hosts, sink.version()) : 50;
        fix.add(new FixStyle.Change(
                "outlier_detection.max_ejection_percent", keepHalf, "leaves at least half the hosts"));
        sink.add(
                Rule.PANIC_DISABLED_EJECT_ALL,
                Severity.WARNING,
                "panic mode is off (healthy_panic_threshold 0) and the cap "
                        + "admits every host" + (hosts == null ? "" : " (" + hosts + " of " + hosts + ")")
                        + ": a failure "
                        + "shared by all hosts ejects them all, and every request then fails with no healthy upstream",
                n,
                fix,
                target.line());
    }

    /**
     * The fewest ejections, from 1 to {@code ejectable}, that put the cluster in panic, or -1. Panic only grows
     * with the number ejected, so a binary search finds it with O(log n) balancer checks instead of n (a
     * million hosts would otherwise take hours).
     */
    private static int firstPanic(int size, int ejectable, double panic, long factor) {
        if (ejectable < 1 || !inPanic(size, ejectable, panic, factor)) {
            return -1;
        }
        int low = 1;
        int high = ejectable;
        while (low < high) {
            int mid = low + (high - low) / 2;
            if (inPanic(size, mid, panic, factor)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    private static boolean inPanic(int size, int ejected, double panic, long factor) {
        return PanicRule.of(panic, factor).inPanic(size - ejected, size);
    }

    private static long largestSafePercent(
            OutlierDetectionConfig c, int size, double panic, long factor, EnvoyVersion v) {
        for (long p = Math.min(c.maxEjectionPercent(), 100); p >= 0; p--) {
            OutlierDetectionConfig candidate = c.toBuilder()
                    .set(OutlierSetting.MAX_EJECTION_PERCENT, p)
                    .set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, false)
                    .build();
            int k = CapArithmetic.maxEjectable(candidate, size, v);
            if (k == 0 || !inPanic(size, k, panic, factor)) {
                // the smallest percentage that lets the same k hosts go reads better than e.g. 99 for 1 of 2
                Long same = k == 0 ? null : CapArithmetic.smallestPercent(c, k - 1, size);
                return same == null ? p : same;
            }
        }
        return 0;
    }

    private static long largestPercentKeepingHalf(OutlierDetectionConfig c, int size, EnvoyVersion v) {
        for (long p = 100; p >= 0; p--) {
            OutlierDetectionConfig candidate =
                    c.toBuilder().set(OutlierSetting.MAX_EJECTION_PERCENT, p).build();
            if (CapArithmetic.maxEjectable(candidate, size, v) <= size / 2) {
                return p;
            }
        }
        return 0;
    }
}
