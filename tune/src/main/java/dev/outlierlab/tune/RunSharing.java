package dev.outlierlab.tune;

import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs of the search that provably give another candidate's figures, so that they are not simulated again. Two
 * rules, both on the settings as written (what the simulation runs) and on a run already made of the same scenario
 * and seed under Envoy's simulation:
 *
 * <ul>
 *   <li><b>Quiet</b>: candidate {@code a} ejected nothing and the cap refused nothing. Every detector that ejects
 *       ({@code enforcing_*} at 100; every enforcement is 0 or 100, so no enforcing draw) never reached its threshold,
 *       and the requests went as with detection off. A candidate {@code b} whose ejecting detectors are each also
 *       ejecting in {@code a} with a threshold at least as high (consecutive 5xx, success rate's factor, failure
 *       percentage's threshold, volume and minimum hosts), everything else equal but the cap, the ejection times and
 *       the health check's return, and whose cap admits one host as {@code a}'s does (a detection of a detector
 *       that does not eject is then never refused by the cap, so never counted), sees the same requests and
 *       answers (a detector's counters do not depend on its thresholds until it detects), so it never detects either:
 *       its figures are {@code a}'s. Envoy: {@code DetectorImpl::onConsecutiveErrorWorker},
 *       {@code successRateEjectionThreshold}, {@code processFailurePercentageEjections} eject only past their
 *       thresholds.
 *   <li><b>Cap</b>: {@code a} and {@code b} differ only in {@code max_ejection_percent} and
 *       {@code always_eject_one_host}, {@code b}'s cap admits every count of ejected hosts {@code a}'s admits, and the cap
 *       refused nothing in {@code a}'s run: every cap check of {@code a} passed and would pass for {@code b}, and the cap
 *       decides nothing else, so {@code b}'s run is {@code a}'s ({@code DetectorImpl::ejectHost}).
 *   <li><b>Same cap</b>: {@code a} and {@code b} differ only in {@code max_ejection_percent} and
 *       {@code always_eject_one_host}, and for the scenario's host count their caps admit the same counts of ejected
 *       hosts: the cap is only ever asked whether one more host may go ({@code DetectorImpl::ejectHost}), and both
 *       answer alike, so the runs are the same whatever happens in them. Unlike the two rules above this needs no
 *       run made first: such runs are made once ({@link #runKey}).
 * </ul>
 *
 *
 * <p>And one rule against detection off ({@link #refusesAll}): where a candidate's cap admits no host at all for the
 * scenario's host count, every detection is refused by the cap before any enforcing draw or ejection
 * ({@code DetectorImpl::ejectHost} checks the cap first), so no host ever leaves and the requests go as with detection
 * off: its run is detection off's run in every figure but the count of refused detections, which depends on its
 * thresholds. The search ranks candidates without that count, so such runs are made only for the settings it prints.
 *
 * <p>Candidates are run in waves, those that can stand for others first; which runs are shared depends only on the
 * figures, never on threads, so the search's result is the same as with every run made, byte for byte.
 */
final class RunSharing {
    /** Settings that may differ under the quiet rule (each compared by its own rule, or irrelevant without ejections). */
    private static final Set<OutlierSetting> QUIET_FREE = EnumSet.of(
            OutlierSetting.CONSECUTIVE_5XX,
            OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
            OutlierSetting.SUCCESS_RATE_STDEV_FACTOR,
            OutlierSetting.ENFORCING_SUCCESS_RATE,
            OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
            OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME,
            OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
            OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
            OutlierSetting.MAX_EJECTION_PERCENT,
            OutlierSetting.ALWAYS_EJECT_ONE_HOST,
            OutlierSetting.BASE_EJECTION_TIME,
            OutlierSetting.MAX_EJECTION_TIME,
            OutlierSetting.MAX_EJECTION_TIME_JITTER,
            OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST);
    /**
     * Settings that may differ from detection off's under the refused rule: everything but what changes the requests'
     * answers or the balancer without an ejection (degraded hosts, the split of local-origin errors).
     */
    private static final Set<OutlierSetting> REFUSED_FREE = EnumSet.complementOf(
            EnumSet.of(OutlierSetting.DETECT_DEGRADED_HOSTS, OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS));
    /** Settings that may differ under the cap rule. */
    private static final Set<OutlierSetting> CAP_FREE =
            EnumSet.of(OutlierSetting.MAX_EJECTION_PERCENT, OutlierSetting.ALWAYS_EJECT_ONE_HOST);

    private final List<Target.Written> written;
    private final CapRule capRule;
    /** The host counts of the suite's scenarios. */
    private final int[] hostCounts;
    /** The candidates in the order that puts every candidate able to stand for another before it. */
    private final int[] rank;
    /** For each candidate, those earlier in {@link #rank} that can stand for it (by either rule). */
    private final List<int[]> coveredBy;

    RunSharing(List<Target.Written> written, List<SuiteScenario> suite, EnvoyVersion version) {
        this.written = written;
        this.capRule = version.capRule();
        Set<Integer> counts = new TreeSet<>();
        suite.forEach(s -> counts.add(s.scenario().cluster().size()));
        this.hostCounts = counts.stream().mapToInt(Integer::intValue).toArray();
        int n = written.size();
        Integer[] order = new Integer[n];
        long[][] keys = new long[n][];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            keys[i] = key(i);
        }
        Arrays.sort(order, Comparator.comparing((Integer i) -> keys[i], Arrays::compare));
        this.rank = new int[n];
        for (int r = 0; r < n; r++) {
            rank[order[r]] = r;
        }
        this.coveredBy = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            List<Integer> by = new ArrayList<>();
            for (int a = 0; a < n; a++) {
                if (rank[a] < rank[b] && (quietCovers(a, b) || capCovers(a, b))) {
                    by.add(a);
                }
            }
            coveredBy.add(by.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /**
     * The candidates in waves: each wave holds those that no other of {@code candidates} in the same or a later wave
     * can stand for.
     */
    List<List<Integer>> waves(List<Integer> candidates) {
        List<Integer> sorted = new ArrayList<>(candidates);
        sorted.sort(Comparator.comparingInt(c -> rank[c]));
        int[] depth = new int[written.size()];
        Arrays.fill(depth, -1);
        List<List<Integer>> waves = new ArrayList<>();
        for (int b : sorted) {
            int d = 0;
            for (int a : coveredBy.get(b)) {
                if (depth[a] >= 0) {
                    d = Math.max(d, depth[a] + 1);
                }
            }
            depth[b] = d;
            while (waves.size() <= d) {
                waves.add(new ArrayList<>());
            }
            waves.get(d).add(b);
        }
        waves.forEach(w -> w.sort(null));
        return waves;
    }

    /** The candidates whose run of this scenario, once made, may stand for {@code b}'s. */
    int[] coveredBy(int b) {
        return coveredBy.get(b);
    }

    /** Whether {@code a}'s run {@code fa} of a scenario with {@code hosts} hosts is {@code b}'s too. */
    boolean stands(int a, int b, RunFigures fa, int hosts) {
        if (fa.overflows() != 0) {
            return false;
        }
        if (capCovers(a, b)) {
            return true;
        }
        return fa.ejections() == 0
                && quietCovers(a, b)
                && allowsOne(written.get(a).config(), hosts)
                && allowsOne(written.get(b).config(), hosts);
    }

    /**
     * The refused rule: whether candidate {@code c}'s run of a scenario with {@code hosts} hosts is detection off's
     * ({@code off}, the settings detection off runs with at the same panic threshold) in every figure but the
     * detections the cap refused, because its cap admits no host there and nothing else it sets acts without an
     * ejection.
     */
    boolean refusesAll(int c, int hosts, OutlierDetectionConfig off, double offPanicPercent, RunProfile offProfile) {
        Target.Written w = written.get(c);
        OutlierDetectionConfig config = w.config();
        return w.profile() == RunProfile.ENVOY
                && offProfile == RunProfile.ENVOY
                && w.panicThresholdPercent() == offPanicPercent
                && !capRule.allows(0, hosts, config.maxEjectionPercent(), config.alwaysEjectOneHost())
                && equalBut(config, off, REFUSED_FREE);
    }

    private boolean allowsOne(OutlierDetectionConfig c, int hosts) {
        return capRule.allows(0, hosts, c.maxEjectionPercent(), c.alwaysEjectOneHost());
    }

    /**
     * The run of candidate {@code c} on a scenario with {@code hosts} hosts as a key: equal keys are the same run by the
     * same-cap rule (the settings but the cap, and the counts of ejected hosts the cap admits). Null for a candidate
     * not run by Envoy's simulation, whose cap another rule reads.
     */
    String runKey(int c, int hosts) {
        Target.Written w = written.get(c);
        if (w.profile() != RunProfile.ENVOY) {
            return null;
        }
        OutlierDetectionConfig config = w.config();
        StringBuilder key = new StringBuilder().append(w.panicThresholdPercent());
        for (OutlierSetting s : OutlierSetting.values()) {
            if (!CAP_FREE.contains(s)) {
                key.append(',').append(config.get(s));
            }
        }
        key.append('/');
        for (int k = 0; k < hosts; k++) {
            key.append(capRule.allows(k, hosts, config.maxEjectionPercent(), config.alwaysEjectOneHost()) ? 'y' : 'n');
        }
        return key.toString();
    }

    /** The quiet rule on the settings (the cap's admission of one host is compared per scenario). */
    boolean quietCovers(int a, int b) {
        Target.Written wa = written.get(a);
        Target.Written wb = written.get(b);
        if (!comparable(wa, wb)) {
            return false;
        }
        OutlierDetectionConfig ca = wa.config();
        OutlierDetectionConfig cb = wb.config();
        for (EjectionType t : EjectionType.values()) {
            long ea = ca.enforcingPercent(t);
            long eb = cb.enforcingPercent(t);
            if ((ea != 0 && ea != 100) || (eb != 0 && eb != 100)) {
                return false; // an enforcing draw: a detection need not eject
            }
        }
        if (!equalBut(ca, cb, QUIET_FREE)) {
            return false;
        }
        if (ejects(cb, EjectionType.CONSECUTIVE_5XX)
                && !(ejects(ca, EjectionType.CONSECUTIVE_5XX) && ca.consecutive5xx() <= cb.consecutive5xx())) {
            return false;
        }
        if (usesSuccessRate(cb) && !(ejects(ca, EjectionType.SUCCESS_RATE) || !ejects(cb, EjectionType.SUCCESS_RATE))) {
            return false;
        }
        if (usesSuccessRate(cb) && ca.successRateStdevFactor() > cb.successRateStdevFactor()) {
            return false;
        }
        if (usesFailurePercentage(cb)
                && !(ejects(ca, EjectionType.FAILURE_PERCENTAGE) || !ejects(cb, EjectionType.FAILURE_PERCENTAGE))) {
            return false;
        }
        return !usesFailurePercentage(cb)
                || (ca.failurePercentageThreshold() <= cb.failurePercentageThreshold()
                        && ca.failurePercentageRequestVolume() <= cb.failurePercentageRequestVolume()
                        && ca.failurePercentageMinimumHosts() <= cb.failurePercentageMinimumHosts());
    }

    /** The cap rule on the settings: only the cap differs, and {@code b}'s admits every count {@code a}'s does. */
    boolean capCovers(int a, int b) {
        Target.Written wa = written.get(a);
        Target.Written wb = written.get(b);
        if (!comparable(wa, wb) || !equalBut(wa.config(), wb.config(), CAP_FREE)) {
            return false;
        }
        OutlierDetectionConfig ca = wa.config();
        OutlierDetectionConfig cb = wb.config();
        for (int hosts : hostCounts) {
            for (int k = 0; k < hosts; k++) {
                if (capRule.allows(k, hosts, ca.maxEjectionPercent(), ca.alwaysEjectOneHost())
                        && !capRule.allows(k, hosts, cb.maxEjectionPercent(), cb.alwaysEjectOneHost())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean comparable(Target.Written a, Target.Written b) {
        return a.profile() == RunProfile.ENVOY
                && b.profile() == RunProfile.ENVOY
                && a.panicThresholdPercent() == b.panicThresholdPercent();
    }

    private static boolean equalBut(OutlierDetectionConfig a, OutlierDetectionConfig b, Set<OutlierSetting> free) {
        for (OutlierSetting s : OutlierSetting.values()) {
            if (!free.contains(s) && a.get(s) != b.get(s)) {
                return false;
            }
        }
        return true;
    }

    private static boolean ejects(OutlierDetectionConfig c, EjectionType t) {
        return c.enforcingPercent(t) >= 100;
    }

    private static boolean usesSuccessRate(OutlierDetectionConfig c) {
        return ejects(c, EjectionType.SUCCESS_RATE) || ejects(c, EjectionType.SUCCESS_RATE_LOCAL_ORIGIN);
    }

    private static boolean usesFailurePercentage(OutlierDetectionConfig c) {
        return ejects(c, EjectionType.FAILURE_PERCENTAGE) || ejects(c, EjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN);
    }

    /**
     * The order of the waves: more sensitive ejecting detectors first (each part compared so that a candidate able to
     * stand for another by the quiet rule sorts before it), then caps admitting fewer hosts, then the candidate's
     * number.
     */
    private long[] key(int i) {
        OutlierDetectionConfig c = written.get(i).config();
        long admitted = 0;
        for (int hosts : hostCounts) {
            for (int k = 0; k < hosts; k++) {
                admitted += capRule.allows(k, hosts, c.maxEjectionPercent(), c.alwaysEjectOneHost()) ? 1 : 0;
            }
        }
        boolean fp = usesFailurePercentage(c);
        return new long[] {
            ejects(c, EjectionType.CONSECUTIVE_5XX) ? -(Long.MAX_VALUE - c.consecutive5xx()) : 0,
            usesSuccessRate(c) ? -(Long.MAX_VALUE - c.successRateStdevFactor()) : 0,
            fp ? -1 : 0,
            fp ? c.failurePercentageThreshold() : Long.MAX_VALUE,
            fp ? c.failurePercentageRequestVolume() : Long.MAX_VALUE,
            fp ? c.failurePercentageMinimumHosts() : Long.MAX_VALUE,
            admitted,
            i
        };
    }
}
