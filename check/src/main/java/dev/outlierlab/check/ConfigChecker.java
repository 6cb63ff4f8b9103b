package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionPolicy;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Explains what a cluster's outlier detection will do, as findings ({@link Rule}). The numbers come from the
 * engine's own rules rather than restated formulas: the cap from {@link EjectionPolicy#checkCap}, panic from
 * the simulator's {@link LoadBalancer}, defaults and validation from {@link OutlierDetectionConfig}.
 */
public final class ConfigChecker {
    /**
     * The checks run, in order, for a cluster with at least one detector that can eject. A new finding is a new
     * {@link Rule} and an entry here.
     */
    static final List<TargetCheck> CHECKS = List.of(
            CapCheck::check,
            VolumeCheck::successRate,
            VolumeCheck::failurePercentage,
            SuccessRateFactorCheck::check,
            DetectOnlyCheck::check,
            DetectorSanityCheck::check,
            IntervalCheck::check,
            HairTriggerCheck::check,
            HealthCheckUnejectCheck::check,
            (c, hosts, rps, sink) -> PanicCheck.check(c, hosts, sink),
            DoubleOfferCheck::check,
            LongEjectionCheck::check,
            PartialFailureCheck::check,
            RoutingCheck::check);

    private ConfigChecker() {}

    /**
     * The findings for one cluster.
     *
     * @param hosts the cluster size, overriding the file's (null: the file's, if it says)
     * @param rps   requests per second to the whole cluster (null: unknown, volume checks are skipped)
     */
    public static List<Finding> check(CheckTarget target, Integer hosts, Long rps) {
        return check(target, hosts, rps, EnvoyVersion.DEFAULT);
    }

    /** The findings for one cluster under the rules of an Envoy release (a gateway configuration ignores it). */
    public static List<Finding> check(CheckTarget target, Integer hosts, Long rps, EnvoyVersion version) {
        return check(target, hosts, rps, version, 1);
    }

    /**
     * The findings for one cluster whose traffic ({@code rps} in all) comes from {@code clients} callers, each its
     * own detector seeing {@code rps / clients}: the volume findings are then per caller. A gateway configuration
     * keeps its own {@code processes}.
     */
    public static List<Finding> check(CheckTarget target, Integer hosts, Long rps, EnvoyVersion version, int clients) {
        FindingSink sink = new FindingSink(target, version, clients);
        Integer size = hosts != null ? hosts : target.hosts();
        if (hosts == null && target.hostsAtLeast()) {
            // a lower bound (DNS names): every finding below reasons about an exact cluster size (the cap's share
            // of N hosts, a minimum of hosts, one host, panic after k of N), so none is given on a bound; the
            // report shows "at least N" and the note says to pass --hosts
            size = null;
        }
        if (target.gateway() != null) {
            if (size != null) {
                GatewayTargets.validateEndpoints(target, size);
            }
            GatewayChecker.check(target.gateway(), size, rps, sink);
            return sink.findings();
        }
        run(target, size, rps, sink);
        return sink.findings();
    }

    private static void run(CheckTarget target, Integer hosts, Long rps, FindingSink sink) {
        for (CheckTarget.Problem p : target.problems()) {
            if (p.envoyAccepts()) {
                // e.g. an interval under 1 ms: Envoy accepts it and truncates it to a 0 ms timer
                sink.add(
                        Rule.NOT_MODELLED,
                        Severity.WARNING,
                        "cluster '" + target.name() + "': " + p.message()
                                + "; nothing else is checked for this cluster",
                        Map.of(),
                        null,
                        p.line());
            } else {
                sink.add(
                        Rule.INVALID_CONFIG,
                        Severity.ERROR,
                        "Envoy rejects cluster '" + target.name() + "': " + p.message(),
                        Map.of(),
                        null,
                        p.line());
            }
        }
        if (!target.problems().isEmpty()) {
            return;
        }
        for (String w : target.warnings()) {
            List<FixStyle.Change> fix = w.startsWith("maxEjectionPercent: 0")
                    ? List.of(new FixStyle.Change(
                            "outlier_detection.max_ejection_percent",
                            10,
                            "say what you get; a DestinationRule cannot turn the cap off"))
                    : List.of();
            sink.add(Rule.ISTIO_TRANSLATION, Severity.WARNING, w, Map.of(), fix, target.line());
        }
        for (String note : target.notes()) {
            sink.add(Rule.NOT_MODELLED, Severity.NOTE, note, Map.of(), List.of(), target.line());
        }
        for (String note : target.routing().notModelled()) {
            sink.add(Rule.NOT_MODELLED, Severity.NOTE, note, Map.of(), List.of(), target.line());
        }
        if (!target.hasOutlierDetection()) {
            sink.add(
                    Rule.NO_OUTLIER_DETECTION,
                    Severity.NOTE,
                    "cluster '" + target.name() + "' has no outlier detection: "
                            + "Envoy does no passive outlier detection for it",
                    Map.of(),
                    List.of(),
                    target.line());
            return;
        }
        OutlierDetectionConfig c = target.config();
        if (noDetectorEnforced(c, sink)) {
            return;
        }
        if (hosts != null && hosts == 1) {
            singleHost(c, sink);
            return;
        }
        for (TargetCheck check : CHECKS) {
            check.check(c, hosts, rps, sink);
        }
    }

    /** One host: ejecting it helps nobody, so only that is said (and what panic mode does then). */
    private static void singleHost(OutlierDetectionConfig c, FindingSink sink) {
        CheckTarget target = sink.target();
        long max = c.maxEjectionPercent();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("hosts", 1L);
        n.put("max_ejection_percent", max);
        n.put("healthy_panic_threshold", target.panicThresholdPercent());
        boolean failsAll = CapArithmetic.capAllows(c, 0, 1, sink.version()) && target.panicThresholdPercent() == 0;
        sink.add(
                Rule.SINGLE_HOST,
                failsAll ? Severity.WARNING : Severity.NOTE,
                "the cluster has one host"
                        + (CapArithmetic.capAllows(c, 0, 1, sink.version())
                                ? ": ejecting it leaves no host to send to, and "
                                        + (target.panicThresholdPercent() > 0
                                                ? "Envoy's panic mode (healthy_panic_threshold "
                                                        + FindingSink.fmt(target.panicThresholdPercent())
                                                        + ") then sends every request to it anyway"
                                                : "with panic mode off every request then fails")
                                : ": max_ejection_percent " + max
                                        + " admits no ejection of it (that would be 100 %), so outlier "
                                        + "detection only counts")
                        + ". Often a DNS name whose addresses Envoy sees as one host; pass "
                        + "--hosts N if it stands for more",
                n,
                List.of(),
                target.line());
    }

    // ---- nothing enforced ----

    private static boolean noDetectorEnforced(OutlierDetectionConfig c, FindingSink sink) {
        if (!Detectors.live(c).isEmpty()) {
            return false;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        Detectors.enforcement(c).forEach((s, v) -> n.put(s.envoyName(), v));
        List<String> zeroThresholds = new ArrayList<>();
        for (EjectionType t : List.of(EjectionType.CONSECUTIVE_5XX, EjectionType.CONSECUTIVE_GATEWAY_FAILURE)) {
            if (c.enforcingPercent(t) > 0) {
                zeroThresholds.add(Detectors.threshold(t).envoyName() + " 0");
                n.put(Detectors.threshold(t).envoyName(), 0L);
            }
        }
        sink.add(
                Rule.NO_DETECTOR_ENFORCED,
                Severity.ERROR,
                "no detector can eject a host: "
                        + String.join(
                                ", ",
                                n.entrySet().stream()
                                        .map(e -> e.getKey() + " " + e.getValue())
                                        .toList())
                        + ". Envoy counts failures and detects outliers but never ejects one, so the cap, panic mode and the "
                        + "thresholds do not matter",
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.enforcing_consecutive_5xx",
                        100,
                        "and consecutive_5xx above 0 (Envoy's default 5)")),
                sink.target().line());
        return true;
    }
}
