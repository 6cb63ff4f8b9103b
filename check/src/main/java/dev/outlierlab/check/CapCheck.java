package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionPolicy;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether {@code max_ejection_percent} admits a host at all: with N hosts, one ejection is 100/N % of the
 * cluster, and {@link EjectionPolicy#checkCap} refuses every detection when that is over the cap (unless
 * {@code always_eject_one_host}). With the size known, the smallest percentage that admits one host and two; with
 * it unknown, the smallest cluster the cap admits a host in.
 */
final class CapCheck {
    /** Largest cluster size searched for "the smallest cluster the cap admits a host in". */
    private static final int MAX_SEARCHED_HOSTS = 10_000;

    private CapCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        long max = c.maxEjectionPercent();
        if (hosts != null) {
            if (CapArithmetic.capAllows(c, 0, hosts, sink.version())) {
                return;
            }
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("hosts", (long) hosts);
            n.put("max_ejection_percent", max);
            n.put("percent_if_one_ejected", FindingSink.round(100.0 * 1 / hosts));
            Long one = CapArithmetic.smallestPercent(c, 0, hosts, sink.version());
            Long two = hosts >= 2 ? CapArithmetic.smallestPercent(c, 1, hosts, sink.version()) : null;
            n.put("smallest_percent_admitting_one_host", one);
            n.put("smallest_percent_admitting_two_hosts", two);
            String message = "max_ejection_percent " + max + " admits no host of " + hosts + ": one ejection would be "
                    + FindingSink.fmt(100.0 / hosts)
                    + " % of the cluster, so every detection is refused (an overflow). The "
                    + "smallest percentage that admits one host is " + one
                    + (two == null ? "" : ", two hosts " + two) + "; or set always_eject_one_host.";
            List<FixStyle.Change> fix = new ArrayList<>();
            fix.add(new FixStyle.Change(
                    "outlier_detection.max_ejection_percent",
                    one,
                    "admits 1 of " + hosts + " hosts" + (two == null ? "" : "; " + two + " admits 2")));
            boolean capChosen = Chosen.value(c, OutlierSetting.MAX_EJECTION_PERCENT);
            boolean ejectionChosen = Chosen.ejection(c);
            if (!capChosen) {
                message = message
                        + (ejectionChosen
                                ? " This is Envoy's default cap, which small clusters outgrow."
                                : " This is Envoy's default cap, and the file configures no detector: Envoy's defaults"
                                        + " alone do this.");
            }
            Severity severity = capChosen ? Severity.ERROR : ejectionChosen ? Severity.WARNING : Severity.NOTE;
            sink.add(Rule.CAP_ADMITS_NO_HOST, severity, message, n, fix, target.line());
            return;
        }
        if (c.alwaysEjectOneHost()) {
            return;
        }
        Integer smallest = null;
        for (int size = 1; size <= MAX_SEARCHED_HOSTS && smallest == null; size++) {
            if (CapArithmetic.capAllows(c, 0, size, sink.version())) {
                smallest = size;
            }
        }
        if (smallest != null && smallest <= 2) {
            // only a one-host cluster is affected, and for one host ejection helps nobody (single-host-cluster)
            return;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("max_ejection_percent", max);
        n.put("smallest_cluster_admitting_one_host", smallest == null ? null : (long) smallest);
        if (smallest == null) {
            sink.add(
                    Rule.CAP_ADMITS_NO_HOST,
                    Severity.ERROR,
                    "max_ejection_percent " + max + " admits no host in a cluster "
                            + "of any size: outlier detection never ejects",
                    n,
                    List.of(new FixStyle.Change(
                            "outlier_detection.max_ejection_percent",
                            34,
                            "admits 1 host of 3 or more, 2 of 6 or more")),
                    target.line());
            return;
        }
        sink.add(
                Rule.CAP_ADMITS_NO_HOST_BELOW,
                Severity.NOTE,
                "max_ejection_percent " + max + " admits no host in a cluster " + "of fewer than " + smallest
                        + " hosts (the file does not say how many there are; pass --hosts N)",
                n,
                List.of(),
                target.line());
    }
}
