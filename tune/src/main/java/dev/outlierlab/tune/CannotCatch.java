package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What no setting the target can express catches here, and why: the "cannot" lines of a recommendation. */
final class CannotCatch {
    private CannotCatch() {}

    /**
     * The lines of "what no setting can catch here": the scenarios no setting can act on (listed, not simulated); the
     * should-eject scenarios where no admissible setting on the front removes a tenth of the avoidable failures, or
     * half of them for one host failing a third of its requests or more; and a dead host no admissible setting takes
     * out within {@link #DEAD_WITHIN_SECONDS}. Each says why: one caller's thin traffic, and the setting on the front
     * that would do it and the constraint it breaks (the user's to loosen).
     */
    static List<String> of(TuneRequest req, List<Evaluation> front) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(DefaultSuite.NOT_DETECTABLE).entrySet()) {
            out.add(e.getKey() + ": " + e.getValue());
        }
        if (front.isEmpty()) {
            return out;
        }
        for (ScenarioScore sc : front.get(0).scores()) {
            if (sc.scenario().expect() != Expectation.EJECT) {
                continue;
            }
            double bestShare = Double.NEGATIVE_INFINITY;
            for (Evaluation e : front) {
                if (!e.admissible()) {
                    continue;
                }
                ScenarioScore mine = e.score(sc.scenario().name());
                if (mine != null && !Double.isNaN(mine.removedPercent())) {
                    bestShare = Math.max(bestShare, mine.removedPercent());
                }
            }
            boolean deep = sc.scenario().singleHost() && failingPpm(sc.scenario()) >= DEEP_PPM;
            if (bestShare != Double.NEGATIVE_INFINITY
                    && (bestShare < Explanation.CAUGHT_PERCENT || deep && bestShare < HALF_PERCENT)) {
                String reason = req.clients() > 1
                        ? "; each of the " + req.clients() + " callers sees only "
                                + req.perHostPerInterval(req.current().intervalNanos())
                                + " requests a host per interval, too few to tell this host from "
                                + "noise"
                        : "";
                String share = bestShare < Explanation.CAUGHT_PERCENT
                        ? "more than " + Explanation.pct(Math.max(0, bestShare)) + " of its avoidable failures"
                        : "half of its avoidable failures (at most " + Explanation.pct(bestShare) + ")";
                out.add(sc.scenario().name() + " (" + sc.scenario().description()
                        + "): no admissible setting on the front removes " + share + reason
                        + tradeOff(req, front, sc.scenario().name(), bestShare));
            }
        }
        String dead = deadTooSlow(req, front);
        if (dead != null) {
            out.add(dead);
        }
        return out;
    }

    /** A single failing host this deep (a third of its requests) or deeper should lose half its avoidable failures. */
    static final long DEEP_PPM = 330_000;

    static final double HALF_PERCENT = 50;

    /** Within this long of its failure a dead host should be out. */
    static final double DEAD_WITHIN_SECONDS = 10;

    /** The failing host's error rate in a one-host scenario (its first fault). */
    private static long failingPpm(SuiteScenario s) {
        return s.scenario().faults().isEmpty()
                ? 0
                : s.scenario().faults().get(0).errorRatePpm();
    }

    /**
     * The trade-off behind a "cannot": the inadmissible setting on the front that removes the most of the scenario's
     * avoidable failures, when it removes half or more, and the constraint it breaks; empty when none does.
     */
    private static String tradeOff(TuneRequest req, List<Evaluation> front, String scenario, double bestShare) {
        Evaluation most = null;
        double share = Math.max(HALF_PERCENT, bestShare);
        for (Evaluation e : front) {
            ScenarioScore mine = e.score(scenario);
            if (!e.admissible() && mine != null && mine.removedPercent() >= share) {
                most = e;
                share = mine.removedPercent();
            }
        }
        return most == null
                ? ""
                : "; " + label(req, most) + " removes " + Explanation.pct(share) + " but breaks a constraint ("
                        + most.violations().get(0) + ")";
    }

    /**
     * The "cannot" line of a dead host no admissible setting on the front takes out within
     * {@link #DEAD_WITHIN_SECONDS} (the suite's host answering every request with a 503), with why: the pace of one
     * caller's requests to a host against the run of failures consecutive 5xx needs, or the interval at whose end the
     * rates are compared; and the faster setting that breaks a constraint, if the front has one. Null when one does.
     */
    private static String deadTooSlow(TuneRequest req, List<Evaluation> front) {
        String name = "one-host-dead-503";
        double fastest = Double.POSITIVE_INFINITY;
        Evaluation best = null;
        Evaluation faster = null;
        double fasterSeconds = Double.POSITIVE_INFINITY;
        for (Evaluation e : front) {
            ScenarioScore mine = e.score(name);
            if (mine == null || Double.isNaN(mine.detectSeconds())) {
                continue;
            }
            if (e.admissible() && mine.detectSeconds() < fastest) {
                fastest = mine.detectSeconds();
                best = e;
            } else if (!e.admissible() && mine.detectSeconds() < fasterSeconds) {
                faster = e;
                fasterSeconds = mine.detectSeconds();
            }
        }
        if (best == null) {
            boolean scored = front.stream().anyMatch(e -> e.admissible() && e.score(name) != null);
            return !scored
                    ? null
                    : name + " (a dead host): no admissible setting on the front takes it out within "
                            + (long) DEAD_WITHIN_SECONDS + " s, nor at all"
                            + (faster == null
                                    ? ""
                                    : "; " + label(req, faster) + " takes it out in "
                                            + String.format(Locale.ROOT, "%.1f s", fasterSeconds)
                                            + " but breaks a constraint ("
                                            + faster.violations().get(0) + ")");
        }
        if (fastest <= DEAD_WITHIN_SECONDS) {
            return null;
        }
        Setting s = best.setting();
        long run = s.gateway() != null ? s.gateway().consecutiveFailures() : s.consecutive5xx();
        double perSecond = (double) req.rps() / req.clients() / req.hosts();
        String why = run > 0
                ? "each caller sends a host " + String.format(Locale.ROOT, "%.1f", perSecond) + " requests a second, "
                        + "and " + run + " failures in a row from one caller are needed"
                : "without a consecutive-failure detector a host is ejected only when the rates are compared, at the "
                        + "end of an interval ("
                        + Durations.format(s.gateway() != null ? s.gateway().windowNanos() : s.intervalNanos()) + ")";
        String trade = faster == null || fasterSeconds >= fastest
                ? ""
                : "; " + label(req, faster) + " takes it out in "
                        + String.format(Locale.ROOT, "%.1f s", fasterSeconds) + " but breaks a constraint ("
                        + faster.violations().get(0) + ")";
        return name + " (a dead host): no admissible setting on the front takes it out within "
                + (long) DEAD_WITHIN_SECONDS + " s (the fastest, " + label(req, best) + ", in "
                + String.format(Locale.ROOT, "%.1f s", fastest) + "): " + why + trade;
    }

    /** A setting's short label in the target's words. */
    private static String label(TuneRequest req, Evaluation e) {
        return req.target().label(e.setting(), e.written().profile());
    }
}
