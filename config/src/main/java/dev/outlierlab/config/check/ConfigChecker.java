package dev.outlierlab.config.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.EjectionPolicy;
import dev.outlierlab.engine.EjectionType;
import dev.outlierlab.engine.OutlierDetectionConfig;
import dev.outlierlab.engine.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Explains what a cluster's outlier detection will do, as findings ({@link Rule}). The numbers come from the
 * engine's own rules rather than restated formulas: the cap from {@link EjectionPolicy#checkCap}, panic from
 * the simulator's {@link LoadBalancer}, defaults and validation from {@link OutlierDetectionConfig}.
 */
public final class ConfigChecker {
    /** Largest cluster size searched for "the smallest cluster the cap admits a host in". */
    private static final int MAX_SEARCHED_HOSTS = 10_000;

    private final CheckTarget target;
    private final Integer hosts;
    private final Long rps;
    private final List<Finding> findings = new ArrayList<>();

    private ConfigChecker(CheckTarget target, Integer hosts, Long rps) {
        this.target = target;
        this.hosts = hosts != null ? hosts : target.hosts();
        this.rps = rps;
    }

    /**
     * The findings for one cluster.
     *
     * @param hosts the cluster size, overriding the file's (null: the file's, if it says)
     * @param rps   requests per second to the whole cluster (null: unknown, volume checks are skipped)
     */
    public static List<Finding> check(CheckTarget target, Integer hosts, Long rps) {
        ConfigChecker c = new ConfigChecker(target, hosts, rps);
        c.run();
        return List.copyOf(c.findings);
    }

    private void run() {
        for (CheckTarget.Problem p : target.problems()) {
            add(Rule.INVALID_CONFIG, Severity.ERROR, "Envoy rejects cluster '" + target.name() + "': " + p.message(),
                    Map.of(), null, p.line());
        }
        if (!target.problems().isEmpty()) {
            return;
        }
        for (String w : target.warnings()) {
            List<FixStyle.Change> fix = w.startsWith("maxEjectionPercent: 0")
                    ? List.of(new FixStyle.Change("outlier_detection.max_ejection_percent", 10,
                            "say what you get; a DestinationRule cannot turn the cap off"))
                    : List.of();
            add(Rule.ISTIO_TRANSLATION, Severity.WARNING, w, Map.of(), fix, target.line());
        }
        for (String note : target.notes()) {
            add(Rule.NOT_MODELLED, Severity.NOTE, note, Map.of(), List.of(), target.line());
        }
        if (!target.hasOutlierDetection()) {
            add(Rule.NO_OUTLIER_DETECTION, Severity.NOTE, "cluster '" + target.name() + "' has no outlier detection: "
                    + "Envoy does no passive outlier detection for it", Map.of(), List.of(), target.line());
            return;
        }
        OutlierDetectionConfig c = target.config();
        cap(c);
        volumeDetector(c, EjectionType.SUCCESS_RATE, OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, Rule.SUCCESS_RATE_TOO_FEW_HOSTS,
                Rule.SUCCESS_RATE_VOLUME_UNREACHABLE, "success-rate");
        volumeDetector(c, EjectionType.FAILURE_PERCENTAGE, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
                OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, Rule.FAILURE_PERCENTAGE_TOO_FEW_HOSTS,
                Rule.FAILURE_PERCENTAGE_VOLUME_UNREACHABLE, "failure-percentage");
        detectOnly(c);
        healthChecks(c);
        panic(c);
        partialFailure(c);
    }

    // ---- the cap ----

    private void cap(OutlierDetectionConfig c) {
        long max = c.maxEjectionPercent();
        if (hosts != null) {
            if (capAllows(c, 0, hosts)) {
                return;
            }
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("hosts", (long) hosts);
            n.put("max_ejection_percent", max);
            n.put("percent_if_one_ejected", round(100.0 * 1 / hosts));
            Long one = smallestPercent(c, 0, hosts);
            Long two = hosts >= 2 ? smallestPercent(c, 1, hosts) : null;
            n.put("smallest_percent_admitting_one_host", one);
            n.put("smallest_percent_admitting_two_hosts", two);
            String message = "max_ejection_percent " + max + " admits no host of " + hosts + ": one ejection would be "
                    + fmt(100.0 / hosts) + " % of the cluster, so every detection is refused (an overflow). The "
                    + "smallest percentage that admits one host is " + one
                    + (two == null ? "" : ", two hosts " + two) + "; or set always_eject_one_host.";
            List<FixStyle.Change> fix = new ArrayList<>();
            fix.add(new FixStyle.Change("outlier_detection.max_ejection_percent", one,
                    "admits 1 of " + hosts + " hosts" + (two == null ? "" : "; " + two + " admits 2")));
            add(Rule.CAP_ADMITS_NO_HOST, Severity.ERROR, message, n, fix, target.line());
            return;
        }
        if (c.alwaysEjectOneHost()) {
            return;
        }
        Integer smallest = null;
        for (int size = 1; size <= MAX_SEARCHED_HOSTS && smallest == null; size++) {
            if (capAllows(c, 0, size)) {
                smallest = size;
            }
        }
        if (smallest != null && smallest == 1) {
            return;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("max_ejection_percent", max);
        n.put("smallest_cluster_admitting_one_host", smallest == null ? null : (long) smallest);
        if (smallest == null) {
            add(Rule.CAP_ADMITS_NO_HOST, Severity.ERROR, "max_ejection_percent " + max + " admits no host in a cluster "
                    + "of any size: outlier detection never ejects", n,
                    List.of(new FixStyle.Change("outlier_detection.max_ejection_percent", 34,
                            "admits 1 host of 3 or more, 2 of 6 or more")), target.line());
            return;
        }
        add(Rule.CAP_ADMITS_NO_HOST_BELOW, Severity.NOTE, "max_ejection_percent " + max + " admits no host in a cluster "
                + "of fewer than " + smallest + " hosts (the file does not say how many there are; pass --hosts N)",
                n, List.of(), target.line());
    }

    private static boolean capAllows(OutlierDetectionConfig c, int ejected, int size) {
        return new EjectionPolicy(c, () -> 0L).checkCap(ejected, size).allowed();
    }

    /** The smallest max_ejection_percent (without always_eject_one_host) that lets the next host go. */
    private static Long smallestPercent(OutlierDetectionConfig c, int ejected, int size) {
        for (long p = 0; p <= 100; p++) {
            OutlierDetectionConfig candidate = c.toBuilder().set(OutlierSetting.MAX_EJECTION_PERCENT, p)
                    .set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, false).build();
            if (capAllows(candidate, ejected, size)) {
                return p;
            }
        }
        return null;
    }

    /** How many hosts the cap lets be ejected at once. */
    private static int maxEjectable(OutlierDetectionConfig c, int size) {
        int k = 0;
        while (k < size && capAllows(c, k, size)) {
            k++;
        }
        return k;
    }

    // ---- success rate and failure percentage ----

    private void volumeDetector(OutlierDetectionConfig c, EjectionType type, OutlierSetting minHostsSetting,
                                OutlierSetting volumeSetting, Rule tooFew, Rule unreachable, String name) {
        if (c.enforcingPercent(type) == 0 || hosts == null) {
            return;
        }
        long minHosts = c.get(minHostsSetting);
        long volume = c.get(volumeSetting);
        if (hosts < minHosts) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("hosts", (long) hosts);
            n.put(minHostsSetting.envoyName(), minHosts);
            List<FixStyle.Change> fix = hosts >= 2
                    ? List.of(new FixStyle.Change("outlier_detection." + minHostsSetting.envoyName(), hosts,
                            "with so few hosts, one bad host moves the mean a lot"))
                    : List.of();
            add(tooFew, Severity.WARNING, name + " detection can never run: it needs " + minHosts + " hosts with "
                    + volume + " requests each in an interval, and the cluster has " + hosts, n, fix, target.line());
            return;
        }
        if (rps == null) {
            return;
        }
        long interval = c.intervalNanos();
        // requests in one interval spread evenly over the hosts: rps * interval / 1e9 / hosts
        BigInteger perHost = BigInteger.valueOf(rps).multiply(BigInteger.valueOf(interval))
                .divide(BigInteger.valueOf(Durations.SECOND)).divide(BigInteger.valueOf(hosts));
        if (perHost.compareTo(BigInteger.valueOf(volume)) >= 0) {
            return;
        }
        long neededRps = BigInteger.valueOf(volume).multiply(BigInteger.valueOf(hosts))
                .multiply(BigInteger.valueOf(Durations.SECOND)).add(BigInteger.valueOf(interval - 1))
                .divide(BigInteger.valueOf(interval)).longValueExact();
        long neededIntervalMs = BigInteger.valueOf(volume).multiply(BigInteger.valueOf(hosts))
                .multiply(BigInteger.valueOf(1000)).add(BigInteger.valueOf(rps - 1))
                .divide(BigInteger.valueOf(rps)).longValueExact();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("rps", rps);
        n.put("hosts", (long) hosts);
        n.put("interval_seconds", Durations.toSeconds(interval));
        n.put("requests_per_host_per_interval", perHost.longValue());
        n.put(volumeSetting.envoyName(), volume);
        n.put("rps_needed", neededRps);
        n.put("interval_needed_seconds", neededIntervalMs / 1000.0);
        String neededInterval = Durations.format(neededIntervalMs * Durations.MILLISECOND);
        add(unreachable, Severity.WARNING, name + " detection cannot judge any host: at " + rps + " rps over " + hosts
                + " hosts each gets " + perHost + " requests per " + Durations.format(interval) + " interval, below "
                + volumeSetting.envoyName() + " " + volume + ". It needs " + neededRps + " rps, an interval of "
                + neededInterval + ", or a lower volume.", n,
                List.of(new FixStyle.Change("outlier_detection.interval", neededInterval,
                        "or " + volumeSetting.envoyName() + ": " + perHost.longValue())), target.line());
    }

    // ---- detect-only detectors and ignored settings ----

    private void detectOnly(OutlierDetectionConfig c) {
        if (c.isExplicit(OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE) && c.consecutiveGatewayFailure() > 0
                && c.enforcingPercent(EjectionType.CONSECUTIVE_GATEWAY_FAILURE) == 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_gateway_failure", c.consecutiveGatewayFailure());
            n.put("enforcing_consecutive_gateway_failure", 0L);
            add(Rule.GATEWAY_DETECT_ONLY, Severity.WARNING, "consecutive_gateway_failure " + c.consecutiveGatewayFailure()
                    + " only detects: enforcing_consecutive_gateway_failure is 0, so " + c.consecutiveGatewayFailure()
                    + " gateway errors in a row are counted but never eject", n,
                    List.of(new FixStyle.Change("outlier_detection.enforcing_consecutive_gateway_failure", 100)),
                    target.line());
        }
        boolean fpConfigured = c.isExplicit(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD)
                || c.isExplicit(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS)
                || c.isExplicit(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
        if (fpConfigured && c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE) == 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("failure_percentage_threshold", c.failurePercentageThreshold());
            n.put("enforcing_failure_percentage", 0L);
            add(Rule.FAILURE_PERCENTAGE_DETECT_ONLY, Severity.WARNING, "failure-percentage detection is configured "
                    + "(threshold " + c.failurePercentageThreshold() + " %) but enforcing_failure_percentage is 0, so "
                    + "it detects and never ejects", n,
                    List.of(new FixStyle.Change("outlier_detection.enforcing_failure_percentage", 100)), target.line());
        }
        if (c.isExplicit(OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE) && !c.splitExternalLocalOriginErrors()) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_local_origin_failure", c.consecutiveLocalOriginFailure());
            n.put("split_external_local_origin_errors", false);
            add(Rule.LOCAL_ORIGIN_IGNORED, Severity.WARNING, "consecutive_local_origin_failure "
                    + c.consecutiveLocalOriginFailure() + " has no effect without split_external_local_origin_errors: "
                    + "local-origin errors count as 5xx instead", n,
                    List.of(new FixStyle.Change("outlier_detection.split_external_local_origin_errors", true)),
                    target.line());
        }
    }

    // ---- active health checks ----

    private void healthChecks(OutlierDetectionConfig c) {
        HealthCheckSpec hc = target.healthChecks();
        if (hc == null || !c.successfulActiveHealthCheckUnejectHost()) {
            return;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("health_check_interval_seconds", Durations.toSeconds(hc.intervalNanos()));
        n.put("base_ejection_time_seconds", Durations.toSeconds(c.baseEjectionTimeNanos()));
        n.put("successful_active_health_check_uneject_host", true);
        add(Rule.HEALTH_CHECK_RETURNS_EJECTED, Severity.WARNING, "an ejected host returns at its next passing active "
                + "health check, every " + Durations.format(hc.intervalNanos()) + ", instead of after "
                + Durations.format(c.baseEjectionTimeNanos()) + ", and its counters are cleared: a health check "
                + "that does not exercise what fails undoes every ejection", n,
                List.of(new FixStyle.Change("outlier_detection.successful_active_health_check_uneject_host", false,
                        "or make the health check exercise the failing dependency")), target.line());
    }

    // ---- panic ----

    private void panic(OutlierDetectionConfig c) {
        double panic = target.panicThresholdPercent();
        long max = Math.min(c.maxEjectionPercent(), 100);
        if (panic > 0) {
            if (hosts != null) {
                int ejectable = maxEjectable(c, hosts);
                int firstPanic = -1;
                for (int k = 1; k <= ejectable && firstPanic < 0; k++) {
                    if (inPanic(hosts, k, panic)) {
                        firstPanic = k;
                    }
                }
                if (firstPanic < 0) {
                    return;
                }
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("hosts", (long) hosts);
                n.put("max_ejection_percent", c.maxEjectionPercent());
                n.put("hosts_the_cap_lets_go", (long) ejectable);
                n.put("healthy_panic_threshold", panic);
                n.put("ejections_that_trigger_panic", (long) firstPanic);
                n.put("healthy_percent_then", round(100.0 * (hosts - firstPanic) / hosts));
                long safe = largestSafePercent(c, hosts, panic);
                add(Rule.CAP_ALLOWS_PANIC, Severity.WARNING, "the cap lets " + ejectable + " of " + hosts + " hosts be "
                        + "ejected, but after " + firstPanic + " only " + fmt(100.0 * (hosts - firstPanic) / hosts)
                        + " % are healthy, below healthy_panic_threshold " + fmt(panic) + " %: Envoy enters panic mode "
                        + "and sends traffic to every host, ejected ones included", n,
                        List.of(new FixStyle.Change("outlier_detection.max_ejection_percent", safe,
                                "the most that cannot trigger panic at " + hosts + " hosts")), target.line());
                return;
            }
            if (max > 100 - panic) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("max_ejection_percent", c.maxEjectionPercent());
                n.put("healthy_panic_threshold", panic);
                long safe = (long) Math.floor(100 - panic);
                add(Rule.CAP_ALLOWS_PANIC, Severity.WARNING, "max_ejection_percent " + max + " is above 100 - "
                        + "healthy_panic_threshold " + fmt(panic) + ": ejections alone can leave fewer than "
                        + fmt(panic) + " % of hosts healthy, and then Envoy's panic mode sends traffic to ejected "
                        + "hosts too", n, List.of(new FixStyle.Change("outlier_detection.max_ejection_percent", safe)),
                        target.line());
            }
            return;
        }
        boolean all = hosts != null ? maxEjectable(c, hosts) == hosts : max >= 100;
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
        long keepHalf = hosts != null ? largestPercentKeepingHalf(c, hosts) : 50;
        fix.add(new FixStyle.Change("outlier_detection.max_ejection_percent", keepHalf,
                "leaves at least half the hosts"));
        add(Rule.PANIC_DISABLED_EJECT_ALL, Severity.WARNING, "panic mode is off (healthy_panic_threshold 0) and the cap "
                + "admits every host" + (hosts == null ? "" : " (" + hosts + " of " + hosts + ")") + ": a failure "
                + "shared by all hosts ejects them all, and every request then fails with no healthy upstream", n, fix,
                target.line());
    }

    private static boolean inPanic(int size, int ejected, double panic) {
        LoadBalancer lb = new LoadBalancer(size, panic);
        for (int h = 0; h < ejected; h++) {
            lb.setEjected(h, true);
        }
        return lb.inPanic();
    }

    private static long largestSafePercent(OutlierDetectionConfig c, int size, double panic) {
        for (long p = Math.min(c.maxEjectionPercent(), 100); p >= 0; p--) {
            OutlierDetectionConfig candidate = c.toBuilder().set(OutlierSetting.MAX_EJECTION_PERCENT, p)
                    .set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, false).build();
            int k = maxEjectable(candidate, size);
            if (k == 0 || !inPanic(size, k, panic)) {
                return p;
            }
        }
        return 0;
    }

    private static long largestPercentKeepingHalf(OutlierDetectionConfig c, int size) {
        for (long p = 100; p >= 0; p--) {
            OutlierDetectionConfig candidate = c.toBuilder().set(OutlierSetting.MAX_EJECTION_PERCENT, p).build();
            if (maxEjectable(candidate, size) <= size / 2) {
                return p;
            }
        }
        return 0;
    }

    // ---- partial failure ----

    private void partialFailure(OutlierDetectionConfig c) {
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
        boolean other = canJudge(c, EjectionType.SUCCESS_RATE, OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
                OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME)
                || canJudge(c, EjectionType.FAILURE_PERCENTAGE, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
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
        String message = detector + " cannot catch a host that fails " + fmt(blind) + " % of its requests or "
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
        add(Rule.CONSECUTIVE_5XX_MISSES_PARTIAL, other ? Severity.NOTE : Severity.WARNING, message, numbers, fix,
                target.line());
    }

    /**
     * The largest error rate (percent) at which failures spread evenly among successes (the lab's fault model,
     * spec section 5) never make {@code n} in a row: (n - 1) / n. Checked against the fault rule in the tests.
     */
    static double largestRateNeverCaught(long n) {
        return round(100.0 * (n - 1) / n);
    }

    private boolean canJudge(OutlierDetectionConfig c, EjectionType type, OutlierSetting minHosts, OutlierSetting volume) {
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

    // ---- helpers ----

    private void add(Rule rule, Severity severity, String message, Map<String, Object> numbers,
                     List<FixStyle.Change> fix, int line) {
        String snippet = fix == null || fix.isEmpty() ? null : target.style().render(fix);
        findings.add(new Finding(rule, severity, target.name(), message, numbers, snippet, target.file(), line));
    }

    private static double round(double d) {
        return Math.round(d * 100.0) / 100.0;
    }

    private static String fmt(double d) {
        if (d == Math.rint(d)) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.1f", d);
    }
}
