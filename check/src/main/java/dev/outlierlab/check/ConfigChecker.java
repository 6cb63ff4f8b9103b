package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionPolicy;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.math.BigInteger;
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
    /** Largest cluster size searched for "the smallest cluster the cap admits a host in". */
    private static final int MAX_SEARCHED_HOSTS = 10_000;

    /**
     * The checks run, in order, for a cluster with at least one detector that can eject. A new finding is a new
     * {@link Rule} and an entry here.
     */
    static final List<TargetCheck> CHECKS = List.of(
            ConfigChecker::cap,
            ConfigChecker::successRateVolume,
            ConfigChecker::failurePercentageVolume,
            SuccessRateFactorCheck::check,
            ConfigChecker::detectOnly,
            DetectorSanityCheck::check,
            IntervalCheck::check,
            HairTriggerCheck::check,
            ConfigChecker::healthChecks,
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

    // ---- the cap ----

    private static void cap(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
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

    // ---- success rate and failure percentage ----

    private static void successRateVolume(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        volumeDetector(
                c,
                hosts,
                rps,
                sink,
                EjectionType.SUCCESS_RATE,
                OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                Rule.SUCCESS_RATE_TOO_FEW_HOSTS,
                Rule.SUCCESS_RATE_VOLUME_UNREACHABLE,
                "success-rate");
    }

    private static void failurePercentageVolume(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        volumeDetector(
                c,
                hosts,
                rps,
                sink,
                EjectionType.FAILURE_PERCENTAGE,
                OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME,
                Rule.FAILURE_PERCENTAGE_TOO_FEW_HOSTS,
                Rule.FAILURE_PERCENTAGE_VOLUME_UNREACHABLE,
                "failure-percentage");
    }

    private static void volumeDetector(
            OutlierDetectionConfig c,
            Integer hosts,
            Long rps,
            FindingSink sink,
            EjectionType type,
            OutlierSetting minHostsSetting,
            OutlierSetting volumeSetting,
            Rule tooFew,
            Rule unreachable,
            String name) {
        CheckTarget target = sink.target();
        if (!Detectors.canEject(c, type) || hosts == null || hosts < 2) {
            return;
        }
        long minHosts = c.get(minHostsSetting);
        long volume = c.get(volumeSetting);
        if (hosts < minHosts) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("hosts", (long) hosts);
            n.put(minHostsSetting.envoyName(), minHosts);
            List<FixStyle.Change> fix;
            if (type == EjectionType.SUCCESS_RATE
                    && hosts < SuccessRateFactorCheck.smallestClusterThatCanEject(c.successRateStdevFactor())) {
                // lowering the minimum alone would let success rate run but never eject (factor >= sqrt(N - 1))
                fix = List.of(
                        new FixStyle.Change(
                                "outlier_detection.enforcing_failure_percentage",
                                100,
                                "success rate cannot eject among " + hosts + " hosts at factor "
                                        + FindingSink.fmt(c.successRateStdevFactor() / 1000.0)),
                        new FixStyle.Change("outlier_detection.failure_percentage_minimum_hosts", hosts));
            } else {
                fix = List.of(new FixStyle.Change(
                        "outlier_detection." + minHostsSetting.envoyName(),
                        hosts,
                        "with so few hosts, one bad host moves the mean a lot"));
            }
            sink.add(
                    tooFew,
                    chosenSeverity(c, type),
                    name + " detection can never run: it needs " + minHosts + " hosts with " + volume
                            + " requests each in an interval, and the cluster has " + hosts,
                    n,
                    fix,
                    target.line());
            return;
        }
        if (rps == null) {
            return;
        }
        if (sink.clients() > 1) {
            CallerVolumeCheck.check(c, hosts, rps, sink, type, volumeSetting, unreachable, name);
            return;
        }
        long interval = c.intervalNanos();
        // requests in one interval spread evenly over the hosts: rps * interval / 1e9 / hosts
        BigInteger perHost = BigInteger.valueOf(rps)
                .multiply(BigInteger.valueOf(interval))
                .divide(BigInteger.valueOf(Durations.SECOND))
                .divide(BigInteger.valueOf(hosts));
        if (perHost.compareTo(BigInteger.valueOf(volume)) >= 0) {
            return;
        }
        long neededRps = BigInteger.valueOf(volume)
                .multiply(BigInteger.valueOf(hosts))
                .multiply(BigInteger.valueOf(Durations.SECOND))
                .add(BigInteger.valueOf(interval - 1))
                .divide(BigInteger.valueOf(interval))
                .longValueExact();
        long neededIntervalMs = BigInteger.valueOf(volume)
                .multiply(BigInteger.valueOf(hosts))
                .multiply(BigInteger.valueOf(1000))
                .add(BigInteger.valueOf(rps - 1))
                .divide(BigInteger.valueOf(rps))
                .longValueExact();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("rps", rps);
        n.put("hosts", (long) hosts);
        n.put("interval_seconds", Durations.toSeconds(interval));
        n.put("requests_per_host_per_interval", perHost.longValue());
        n.put(volumeSetting.envoyName(), volume);
        n.put("rps_needed", neededRps);
        n.put("interval_needed_seconds", neededIntervalMs / 1000.0);
        String neededInterval = Durations.format(neededIntervalMs * Durations.MILLISECOND);
        sink.add(
                unreachable,
                chosenSeverity(c, type),
                name + " detection cannot judge any host: at " + rps + " rps over " + hosts
                        + " hosts each gets " + perHost + " requests per " + Durations.format(interval)
                        + " interval, below "
                        + volumeSetting.envoyName() + " " + volume + ". It needs " + neededRps + " rps, an interval of "
                        + neededInterval + ", or a lower volume.",
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.interval",
                        neededInterval,
                        "or " + volumeSetting.envoyName() + ": " + perHost.longValue())),
                target.line());
    }

    /**
     * A detector that cannot act here is a warning when the file configures it, a note when only Envoy's
     * default turns it on (success rate is enforced at 100 by default, and nobody asked for it).
     */
    static Severity chosenSeverity(OutlierDetectionConfig c, EjectionType type) {
        return Chosen.detector(c, type) ? Severity.WARNING : Severity.NOTE;
    }

    // ---- detect-only detectors and ignored settings ----

    private static void detectOnly(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        if (Chosen.value(c, OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE)
                && c.consecutiveGatewayFailure() > 0
                && c.enforcingPercent(EjectionType.CONSECUTIVE_GATEWAY_FAILURE) == 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_gateway_failure", c.consecutiveGatewayFailure());
            n.put("enforcing_consecutive_gateway_failure", 0L);
            sink.add(
                    Rule.GATEWAY_DETECT_ONLY,
                    Severity.WARNING,
                    "consecutive_gateway_failure " + c.consecutiveGatewayFailure()
                            + " only detects: enforcing_consecutive_gateway_failure is 0, so "
                            + c.consecutiveGatewayFailure()
                            + " gateway errors in a row are counted but never eject",
                    n,
                    List.of(new FixStyle.Change("outlier_detection.enforcing_consecutive_gateway_failure", 100)),
                    target.line());
        }
        boolean fpConfigured = Chosen.value(c, OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD)
                || Chosen.value(c, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS)
                || Chosen.value(c, OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
        if (fpConfigured && c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE) == 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("failure_percentage_threshold", c.failurePercentageThreshold());
            n.put("enforcing_failure_percentage", 0L);
            sink.add(
                    Rule.FAILURE_PERCENTAGE_DETECT_ONLY,
                    Severity.WARNING,
                    "failure-percentage detection is configured "
                            + "(threshold " + c.failurePercentageThreshold()
                            + " %) but enforcing_failure_percentage is 0, so "
                            + "it detects and never ejects",
                    n,
                    List.of(new FixStyle.Change("outlier_detection.enforcing_failure_percentage", 100)),
                    target.line());
        }
        if (Chosen.value(c, OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE) && !c.splitExternalLocalOriginErrors()) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_local_origin_failure", c.consecutiveLocalOriginFailure());
            n.put("split_external_local_origin_errors", false);
            sink.add(
                    Rule.LOCAL_ORIGIN_IGNORED,
                    Severity.WARNING,
                    "consecutive_local_origin_failure "
                            + c.consecutiveLocalOriginFailure()
                            + " has no effect without split_external_local_origin_errors: "
                            + "local-origin errors count as 5xx instead",
                    n,
                    List.of(new FixStyle.Change("outlier_detection.split_external_local_origin_errors", true)),
                    target.line());
        }
    }

    // ---- active health checks ----

    private static void healthChecks(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        HealthCheckSpec hc = target.healthChecks();
        if (hc == null || !c.successfulActiveHealthCheckUnejectHost()) {
            return;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("health_check_interval_seconds", Durations.toSeconds(hc.intervalNanos()));
        n.put("base_ejection_time_seconds", Durations.toSeconds(c.baseEjectionTimeNanos()));
        n.put("successful_active_health_check_uneject_host", true);
        sink.add(
                Rule.HEALTH_CHECK_RETURNS_EJECTED,
                Severity.WARNING,
                "an ejected host returns at its next passing active "
                        + "health check, every " + Durations.format(hc.intervalNanos()) + ", instead of after "
                        + Durations.format(c.baseEjectionTimeNanos())
                        + ", and its counters are cleared: a health check "
                        + "that does not exercise what fails undoes every ejection"
                        + (sink.version().failingHealthCheckUnejects()
                                ? "; and before Envoy 1.31 a failing check, until "
                                        + "unhealthy_threshold marks the host failed, returns it too"
                                : ""),
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.successful_active_health_check_uneject_host",
                        false,
                        "or make the health check exercise the failing dependency")),
                target.line());
    }
}
