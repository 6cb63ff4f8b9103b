package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.stage.StageMode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The candidates of a search: only what the target can express ({@link Target}), sized to the cluster. Caps are the
 * smallest {@code max_ejection_percent} that admits one, two, three, four hosts, then about half again as many each
 * step ({@link #capCounts}), up to {@code --max-ejected} under the release's cap rule (and always-eject-one where it exists); consecutive 5xx at 5, 10 or 20 (or off); success rate
 * off or at factors that a single outlier among these hosts can exceed (a host's z-score is at most
 * {@code sqrt(hosts - 1)}), with a request volume the caller's traffic reaches in an interval; failure percentage
 * off, 30 % or 50 %; the current interval and, when one caller's traffic is too thin for the volumes, 30 s.
 */
final class SearchSpace {
    /** Below this many requests per host and interval a rate is too coarse to compare hosts with. */
    static final long MIN_SUCCESS_RATE_VOLUME = 20;

    static final long MIN_FAILURE_PERCENTAGE_VOLUME = 10;

    /** Envoy's defaults of failure percentage's volume and minimum hosts, for a target that cannot choose them. */
    private static final long ENVOY_DEFAULT_FP_VOLUME = 50;

    private static final long ENVOY_DEFAULT_FP_HOSTS = 5;

    private SearchSpace() {}

    static List<Setting> candidates(TuneRequest req) {
        List<Setting> own = req.target().candidates(req);
        if (own != null) {
            return own; // a target whose settings are its own searches them itself
        }
        Setting current = Setting.of(req.current());
        Target target = req.target();
        Set<Setting> out = new LinkedHashSet<>();
        List<Long> intervals = new ArrayList<>(List.of(current.intervalNanos()));
        if (req.perHostPerInterval(current.intervalNanos()) < 100 && current.intervalNanos() < 30 * Durations.SECOND) {
            intervals.add(30 * Durations.SECOND);
        }
        if (current.intervalNanos() > 60 * Durations.SECOND || current.intervalNanos() < Durations.SECOND) {
            intervals.add(10 * Durations.SECOND); // an extreme interval: Envoy's default beside it
        }
        List<Long> ejectionTimes = new ArrayList<>(List.of(current.baseEjectionTimeNanos()));
        if (current.baseEjectionTimeNanos() < 5 * Durations.SECOND
                || current.baseEjectionTimeNanos() > 600 * Durations.SECOND) {
            ejectionTimes.add(30 * Durations.SECOND); // an extreme ejection time: Envoy's default beside it
        }
        List<long[]> caps = caps(req);
        List<Long> consecutive = !target.hasConsecutive()
                ? List.of(0L)
                : target.canTurnOffConsecutive() ? List.of(0L, 5L, 10L, 20L) : List.of(5L, 10L, 20L);
        List<long[]> timings = new ArrayList<>();
        intervals.forEach(i -> ejectionTimes.forEach(e -> timings.add(new long[] {i, e})));
        for (long[] timing : timings) {
            long interval = timing[0];
            long ejection = timing[1];
            long v = req.perHostPerInterval(interval);
            for (long[] cap : caps) {
                for (long c5 : consecutive) {
                    for (long[] sr : successRates(req, target, v)) {
                        for (long[] fp : failurePercentages(req, target, v)) {
                            if (c5 == 0 && sr[0] == 0 && fp[0] == 0) {
                                continue; // no detector ejects: detection off, scored as the baseline already
                            }
                            Setting candidate = Setting.builder()
                                    .consecutive5xx(c5)
                                    .successRateStdevFactor(sr[0])
                                    .successRateRequestVolume(sr[1])
                                    .successRateMinimumHosts(sr[2])
                                    .failurePercentageThreshold(fp[0])
                                    .failurePercentageRequestVolume(fp[1])
                                    .failurePercentageMinimumHosts(fp[2])
                                    .intervalNanos(interval)
                                    .baseEjectionTimeNanos(ejection)
                                    .maxEjectionPercent(cap[0])
                                    .alwaysEjectOneHost(cap[1] == 1)
                                    .keepOnPassingCheck(current.keepOnPassingCheck())
                                    .build();
                            out.add(candidate);
                            if (searchesHealthCheckReturn(req)) {
                                out.add(candidate.keepingOnPassingCheck(!current.keepOnPassingCheck()));
                            }
                        }
                    }
                }
            }
        }
        out.remove(current);
        return new ArrayList<>(out);
    }

    /**
     * Whether {@code successful_active_health_check_uneject_host} is searched: the cluster has an active health check,
     * the target is an Envoy cluster (the control planes do not expose the field) and the release has it (1.28).
     */
    static boolean searchesHealthCheckReturn(TuneRequest req) {
        EnvoyVersion added = EnvoyVersion.addedIn(OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST);
        return req.healthChecks() != null
                && req.target().can(Target.Can.HEALTH_CHECK_RETURN)
                && req.envoyVersion().atLeast(added);
    }

    /**
     * The gateway profile's candidates: its own settings around the current ones (mode prod, one process per caller,
     * the routing kept): the window, and twice it when an endpoint's traffic in one is under min_requests; the peer
     * set, and the other one; {@code stdev_factor}, and the largest that lets one endpoint of these be ejected when
     * the current one cannot ({@code check}'s suggestion); the hard trip at 3, 5, 10 or 20 failures in a row, or off
     * only where the statistical rule can fire;
     * {@code min_stdev} at the current value or 5 points (the spread of a noisy pool or a shared outage stays under
     * it, one bad endpoint's does not); {@code min_requests} at the current value or 100 when an endpoint gets 125 in
     * a window (a rate over 5 requests swings by 20 points with each failure); the current ejection time or twice it.
     */
    static List<Setting> gatewayCandidates(TuneRequest req, GatewayConfig g) {
        int n = req.hosts();
        Set<Long> windows = new LinkedHashSet<>(List.of(g.windowNanos()));
        if (perWindow(req, g.windowNanos()) < g.minRequests() && 2 * g.windowNanos() <= 600 * Durations.SECOND) {
            windows.add(2 * g.windowNanos()); // thin traffic: a longer window reaches min_requests
        }
        Set<Double> factors = new LinkedHashSet<>(List.of(g.stdevFactor()));
        if (Math.sqrt(n - 1.0) <= g.stdevFactor() && n >= 3) {
            factors.add(largestFactorThatCanEject(n)); // what check suggests: the rule can fire among n endpoints
        }
        Set<PeerSet> peers = new LinkedHashSet<>(List.of(g.peerSet()));
        if (n >= 3 && g.peerSet() == PeerSet.ALL && Math.sqrt(n - 1.0) <= g.stdevFactor()) {
            peers.add(PeerSet.OTHERS); // compared with the others only, one bad endpoint lies further from their mean
        }
        Set<Setting> out = new LinkedHashSet<>();
        for (long window : windows) {
            long perWindow = perWindow(req, window);
            Set<Integer> volumes = new LinkedHashSet<>(List.of(g.minRequests()));
            if (perWindow >= 125) {
                volumes.add(Math.max(g.minRequests(), 100));
            }
            for (PeerSet peer : peers) {
                for (double factor : factors) {
                    for (int volume : volumes) {
                        boolean statisticalCanFire =
                                perWindow >= volume && (peer == PeerSet.OTHERS ? n >= 3 : Math.sqrt(n - 1.0) > factor);
                        for (int trip : new int[] {0, 3, 5, 10, 20}) {
                            if (trip == 0 && !statisticalCanFire) {
                                continue; // the trip off with a rule that cannot fire is detection off in disguise
                            }
                            for (double minStdev :
                                    new double[] {g.minStdevPercent(), Math.max(5.0, g.minStdevPercent())}) {
                                for (long ejection : new long[] {g.ejectionTimeNanos(), 2 * g.ejectionTimeNanos()}) {
                                    out.add(Setting.of(g.toBuilder()
                                            .mode(StageMode.PROD)
                                            .processes(req.clients())
                                            .window(Duration.ofNanos(window))
                                            .peerSet(peer)
                                            .stdevFactor(factor)
                                            .consecutiveFailures(trip)
                                            .minRequests(volume)
                                            .minStdev(minStdev)
                                            .ejectionTime(Duration.ofNanos(ejection))
                                            .build()));
                                }
                            }
                        }
                    }
                }
            }
        }
        out.remove(req.currentSetting());
        return new ArrayList<>(out);
    }

    /** Requests one endpoint gets from one gateway process in a window. */
    private static long perWindow(TuneRequest req, long windowNanos) {
        return (long) Math.floor(req.rpsPerCaller() * (windowNanos / 1e9) / req.hosts());
    }

    /** The largest factor, in tenths, strictly below sqrt(n - 1): what still lets one endpoint of n be ejected. */
    static double largestFactorThatCanEject(int endpoints) {
        double bound = Math.sqrt(endpoints - 1.0);
        double tenths = Math.floor(bound * 10) / 10;
        return BigDecimal.valueOf(tenths < bound ? tenths : tenths - 0.1)
                .setScale(1, RoundingMode.HALF_UP)
                .doubleValue();
    }

    /** Below this many hosts out at once every count is searched; above it the counts step by half again. */
    static final int EVERY_CAP_UP_TO = 4;

    /**
     * The counts of hosts out at once whose smallest cap is searched: every one up to {@link #EVERY_CAP_UP_TO}, then
     * each about half again the last (6, 9, 14, 21, 32, 48, ...), and {@code most}: in a large cluster the cap
     * matters by its order of magnitude, and a cap per count would multiply the candidates by the cluster's size.
     */
    static List<Integer> capCounts(int most) {
        List<Integer> counts = new ArrayList<>();
        for (int k = 1; k <= most; k = k < EVERY_CAP_UP_TO ? k + 1 : Math.max(k + 1, (k * 3 + 1) / 2)) {
            counts.add(k);
        }
        if (most >= 1 && counts.get(counts.size() - 1) != most) {
            counts.add(most);
        }
        return counts;
    }

    /** {max_ejection_percent, always_eject_one_host} pairs. */
    static List<long[]> caps(TuneRequest req) {
        CapRule rule = req.envoyVersion().capRule();
        Target target = req.target();
        long currentCap = req.current().maxEjectionPercent();
        List<long[]> caps = new ArrayList<>();
        Set<Long> seen = new LinkedHashSet<>();
        for (int k : capCounts(req.maxEjected())) {
            long smallest = smallestCapAdmitting(target, rule, k, req.hosts());
            if (target.can(Target.Can.CAP_BEFORE_EJECTION)
                    && target.admits(rule, k - 1, req.hosts(), currentCap, false)
                    && (k == req.hosts() || !target.admits(rule, k, req.hosts(), currentCap, false))) {
                smallest = currentCap; // gRPC's current cap admits exactly k hosts: keep it rather than a new number
            }
            if (smallest <= 100 && seen.add(smallest)) {
                caps.add(new long[] {smallest, 0});
            }
        }
        if (req.target().hasAlwaysEjectOne(req.envoyVersion()) && !rule.allows(0, req.hosts(), currentCap, false)) {
            caps.add(new long[] {currentCap, 1});
        }
        return caps;
    }

    /** The smallest whole percentage under which the k-th host may be ejected with k - 1 already out. */
    static long smallestCapAdmitting(Target target, CapRule rule, int k, int hosts) {
        for (long max = 1; max <= 100; max++) {
            if (target.admits(rule, k - 1, hosts, max, false)) {
                return max;
            }
        }
        return 101;
    }

    /** {factor (0 off), volume, minimum hosts} triples. */
    private static List<long[]> successRates(TuneRequest req, Target target, long perHost) {
        if (!target.choosesSuccessRate()) {
            return List.<long[]>of(target.fixedSuccessRate());
        }
        List<long[]> out = new ArrayList<>();
        out.add(new long[] {
            0, req.current().successRateRequestVolume(), req.current().successRateMinimumHosts()
        });
        long volume = Math.min(100, perHost * 4 / 5);
        if (volume < MIN_SUCCESS_RATE_VOLUME) {
            return out;
        }
        long minHosts = Math.min(5, req.hosts());
        double zMax = Math.sqrt(req.hosts() - 1.0);
        long top = (long) Math.floor((zMax - 0.15) * 10) * 100;
        Set<Long> factors = new LinkedHashSet<>();
        if (top >= 1900) {
            factors.add(1900L);
        }
        if (top >= 500) {
            factors.add(top);
        }
        for (long f : factors) {
            out.add(new long[] {f, volume, minHosts});
        }
        return out;
    }

    /** {threshold (0 off), volume, minimum hosts} triples. */
    private static List<long[]> failurePercentages(TuneRequest req, Target target, long perHost) {
        long currentVolume = req.current().failurePercentageRequestVolume();
        long currentHosts = req.current().failurePercentageMinimumHosts();
        List<long[]> out = new ArrayList<>();
        out.add(new long[] {0, currentVolume, currentHosts});
        if (!target.hasFailurePercentage()) {
            return out;
        }
        long volume;
        long minHosts;
        if (target.choosesFailurePercentageVolume()) {
            volume = Math.min(50, perHost * 4 / 5);
            minHosts = Math.min(5, req.hosts());
            if (volume < MIN_FAILURE_PERCENTAGE_VOLUME) {
                return out;
            }
        } else {
            volume = ENVOY_DEFAULT_FP_VOLUME;
            minHosts = ENVOY_DEFAULT_FP_HOSTS;
        }
        for (long threshold : new long[] {30, 50}) {
            out.add(new long[] {threshold, volume, minHosts});
        }
        return out;
    }
}
