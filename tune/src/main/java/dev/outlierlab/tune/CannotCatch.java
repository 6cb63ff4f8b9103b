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
     * that would do it and the constraint it breaks (the user's to loosen); for Caddy, a scenario whose host does not
     * answer, when no {@code response_header_timeout} is set ({@link Target#cannotCatch}).
     */
    static List<String> of(TuneRequest req, Evaluation current, List<Evaluation> front, Evaluation best) {
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
                String unanswered = req.target().cannotCatch(req.currentProfile(), sc.scenario());
                out.add(sc.scenario().name() + " (" + sc.scenario().description()
                        + "): no admissible setting on the front removes " + share + reason
                        + (unanswered == null ? "" : "; " + unanswered)
                        + tradeOff(req, front, sc.scenario().name(), bestShare));
            }
        }
        for (String name : new TreeMap<>(DEAD).keySet()) {
            String dead = deadTooSlow(req, current, front, best, name);
            if (dead != null) {
                out.add(dead);
            }
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

    /** The suite's dead hosts and how a line names them: a host answering every request with a 503, or refusing. */
    private static final Map<String, String> DEAD =
            Map.of("one-host-dead-503", "a dead host", "one-host-refused", "a host refusing every connection");

    /**
     * The "cannot" line of a dead host (the suite's host answering every request with a 503, or refusing every
     * connection) the recommendation does not take out within {@link #DEAD_WITHIN_SECONDS}, with why. When no
     * admissible setting on the front does: the pace of one caller's requests to a host against the run of failures
     * consecutive 5xx needs, or the interval at whose end the rates are compared; and the faster setting that breaks
     * a constraint, if the front has one. When one does (the current settings among them) but removes less of the
     * avoidable failures than the recommendation, that trade-off: the setting, how fast, and how much less, with the
     * target's reason when it has one ({@link Target#deadHostTradeOff}). Null when the recommendation takes it out
     * in time, or the scenario is not in the suite.
     */
    private static String deadTooSlow(
            TuneRequest req, Evaluation current, List<Evaluation> front, Evaluation best, String name) {
        ScenarioScore mine = best == null ? null : best.score(name);
        if (mine == null || mine.detectSeconds() <= DEAD_WITHIN_SECONDS) {
            return null;
        }
        double fastest = Double.POSITIVE_INFINITY;
        Evaluation quickest = null;
        Evaluation faster = null;
        double fasterSeconds = Double.POSITIVE_INFINITY;
        List<Evaluation> seen = new ArrayList<>(front);
        if (current != null && !seen.contains(current)) {
            seen.add(current);
        }
        for (Evaluation e : seen) {
            ScenarioScore s = e.score(name);
            if (s == null || Double.isNaN(s.detectSeconds())) {
                continue;
            }
            if (e.admissible() && s.detectSeconds() < fastest) {
                fastest = s.detectSeconds();
                quickest = e;
            } else if (!e.admissible() && s.detectSeconds() < fasterSeconds) {
                faster = e;
                fasterSeconds = s.detectSeconds();
            }
        }
        String head = name + " (" + DEAD.get(name) + "): ";
        String never = Double.isNaN(mine.detectSeconds())
                ? "the recommendation never takes it out"
                : "the recommendation takes it out in " + String.format(Locale.ROOT, "%.1f s", mine.detectSeconds());
        String trade = faster == null || fasterSeconds >= fastest
                ? ""
                : "; " + label(req, faster) + " takes it out in "
                        + String.format(Locale.ROOT, "%.1f s", fasterSeconds) + " but breaks a constraint ("
                        + faster.violations().get(0) + ")";
        if (quickest != null && fastest <= DEAD_WITHIN_SECONDS) {
            // an admissible setting takes it out in time, at less benefit than the recommendation's
            String reason = req.target().deadHostTradeOff();
            boolean less = quickest.benefitPercent() < best.benefitPercent();
            // the current settings (plural) or one setting on the front
            String verb = quickest == current ? "" : "s";
            return head + "no admissible setting takes it out within " + (long) DEAD_WITHIN_SECONDS + " s and "
                    + (less ? "removes as much as" : "does as little harm as") + " the recommendation: " + never + "; "
                    + (quickest == current
                            ? "the current settings, " + label(req, quickest) + ","
                            : label(req, quickest))
                    + " take" + verb + " it out in " + String.format(Locale.ROOT, "%.1f s", fastest) + " and meet"
                    + verb
                    + " every constraint"
                    + (less
                            ? " but remove" + verb + " " + Explanation.pct(quickest.benefitPercent())
                                    + " of the avoidable failures against the recommendation's "
                                    + Explanation.pct(best.benefitPercent())
                            : " but do" + (verb.isEmpty() ? "" : "es") + " more harm ("
                                    + String.format(Locale.ROOT, "%.2f", quickest.harm())
                                    + " against the recommendation's " + String.format(Locale.ROOT, "%.2f", best.harm())
                                    + ")")
                    + trade + (reason == null ? "" : "; " + reason);
        }
        if (quickest == null) {
            return head + "no admissible setting on the front takes it out within " + (long) DEAD_WITHIN_SECONDS + " s"
                    + (Double.isNaN(mine.detectSeconds()) ? ", nor at all" : " (" + never + ")") + trade;
        }
        Setting s = quickest.setting();
        long run = s.gateway() != null ? s.gateway().consecutiveFailures() : s.consecutive5xx();
        double perSecond = (double) req.rps() / req.clients() / req.hosts();
        String why = run > 0
                ? "each caller sends a host " + String.format(Locale.ROOT, "%.1f", perSecond) + " requests a second, "
                        + "and " + run + " failures in a row from one caller are needed"
                : "without a consecutive-failure detector a host is ejected only when the rates are compared, at the "
                        + "end of an interval ("
                        + Durations.format(s.gateway() != null ? s.gateway().windowNanos() : s.intervalNanos()) + ")";
        return head + "no admissible setting on the front takes it out within " + (long) DEAD_WITHIN_SECONDS
                + " s (the fastest, " + label(req, quickest) + ", in "
                + String.format(Locale.ROOT, "%.1f s", fastest) + "): " + why + trade;
    }

    /** A setting's short label in the target's words. */
    private static String label(TuneRequest req, Evaluation e) {
        return req.target().label(e.setting(), e.written().profile(), req.hosts());
    }
}
