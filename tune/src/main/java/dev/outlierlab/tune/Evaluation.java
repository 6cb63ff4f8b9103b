package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One candidate scored on the whole suite: the objective users read. Benefit is the mean share of avoidable failures
 * removed over the should-eject scenarios (and the worst seed's mean beside it); harm is the false ejections per run
 * (each weighted by its caller's share of the traffic) summed over the scenarios plus the failures it adds beyond detection off (in percentage points, an overload's
 * cost); the constraints are no false ejection on any seed, no panic where one host fails alone, at most
 * {@code maxEjected} hosts out at once, and no more failed requests than detection off where nothing should be
 * ejected ({@link #DEFAULT_MAX_ADDED_PER_THOUSAND}): what the callers pay for a false ejection differs by target (Envoy's
 * panic threshold and cap keep traffic flowing; nginx, HAProxy and Caddy answer 502 or 503 when every server is
 * out), so the false ejections alone do not weigh it.
 *
 * @param candidate the setting's index in the search (0 is the current setting)
 * @param addedFailuresPerThousand the most failed requests beyond detection off per 1,000 requests over the scenarios
 *     where nothing should be ejected (negative when it fails fewer in each), 0 when the suite has none
 * @param addedFailuresScenario the scenario of that figure, or null when the suite has none
 * @param allowedAddedPerThousand the most that figure may be ({@code --max-added-failures})
 * @param violations the constraints broken, in words; empty when the setting is admissible
 */
public record Evaluation(
        int candidate,
        Setting setting,
        Target.Written written,
        List<ScenarioScore> scores,
        double benefitPercent,
        double worstSeedBenefitPercent,
        double falseEjections,
        double addedFailurePoints,
        double addedFailuresPerThousand,
        String addedFailuresScenario,
        double allowedAddedPerThousand,
        List<String> violations) {

    /**
     * The most failed requests per 1,000 a setting may add over detection off in a scenario where nothing should be
     * ejected: one in a thousand, above the chance differences of a few requests when a host's traffic moves to
     * another one as noisy.
     */
    public static final double DEFAULT_MAX_ADDED_PER_THOUSAND = 1;

    public Evaluation {
        scores = List.copyOf(scores);
        violations = List.copyOf(violations);
    }

    /** Scores the candidate. */
    static Evaluation of(
            int candidate,
            Setting setting,
            Target.Written written,
            List<ScenarioScore> scores,
            int maxEjected,
            double maxFalsePerDay,
            double maxAddedPerThousand) {
        double sum = 0;
        int n = 0;
        int seeds = scores.isEmpty() ? 0 : scores.get(0).runs().size();
        double[] perSeed = new double[seeds];
        int[] perSeedCount = new int[seeds];
        double falseEjections = 0;
        double added = 0;
        ScenarioScore worstNone = null;
        List<String> violations = new ArrayList<>();
        for (ScenarioScore s : scores) {
            if (s.scenario().expect() == Expectation.EJECT) {
                double r = s.removedPercent();
                if (!Double.isNaN(r)) {
                    sum += r;
                    n++;
                }
                for (int i = 0; i < seeds; i++) {
                    double ri = s.removedPercent(i);
                    if (!Double.isNaN(ri)) {
                        perSeed[i] += ri;
                        perSeedCount[i]++;
                    }
                }
            }
            // a false ejection by one of P callers moves 1/P of the traffic: harm is weighted by that share
            falseEjections +=
                    s.falseEjections() / s.scenario().scenario().traffic().clients();
            added += s.addedFailurePoints();
            long bad = s.seedsWithFalseEjections();
            if (bad > 0 && s.falseEjectionsPerDay() > maxFalsePerDay) {
                violations.add(s.scenario().name() + ": false ejections on " + bad + " of " + seeds + " seeds ("
                        + perDay(s.falseEjectionsPerDay()) + " a day in these conditions; --max-false-per-day "
                        + perDay(maxFalsePerDay) + ")");
            }
            if (s.scenario().expect() == Expectation.NONE
                    && (worstNone == null || s.addedFailuresPerThousand() > worstNone.addedFailuresPerThousand())) {
                worstNone = s;
            }
            if (s.scenario().singleHost() && s.panicSeconds() > 0) {
                violations.add(s.scenario().name() + ": panic with one host failing");
            }
            if (s.maxEjectedAtOnce() > maxEjected) {
                violations.add(s.scenario().name() + ": " + s.maxEjectedAtOnce() + " hosts out at once (at most "
                        + maxEjected + ")");
            }
        }
        if (worstNone != null && worstNone.addedFailuresPerThousand() > maxAddedPerThousand) {
            violations.add(addedWords(worstNone, maxAddedPerThousand));
        }
        double worst = Double.NaN;
        for (int i = 0; i < seeds; i++) {
            if (perSeedCount[i] > 0) {
                double m = perSeed[i] / perSeedCount[i];
                worst = Double.isNaN(worst) ? m : Math.min(worst, m);
            }
        }
        return new Evaluation(
                candidate,
                setting,
                written,
                scores,
                n == 0 ? 0 : sum / n,
                Double.isNaN(worst) ? 0 : worst,
                falseEjections,
                added,
                worstNone == null ? 0 : worstNone.addedFailuresPerThousand(),
                worstNone == null ? null : worstNone.scenario().name(),
                maxAddedPerThousand,
                violations);
    }

    /** The cost where nothing should go, as a constraint broken: {@code shared-outage: 517.1 more failed ...}. */
    private static String addedWords(ScenarioScore s, double allowed) {
        return s.scenario().name() + ": " + perThousand(s.addedFailuresPerThousand())
                + " more failed requests per 1,000 than with detection off (" + aDay(s.addedFailuresPerDay())
                + " a day at " + s.scenario().scenario().traffic().rps()
                + " rps), where nothing should be ejected (at most "
                + perThousand(allowed) + ")";
    }

    /** Whether it fails more requests than detection off where nothing should be ejected, past the allowance. */
    public boolean addsFailuresWhereNoneShould() {
        return addedFailuresScenario != null && addedFailuresPerThousand > allowedAddedPerThousand;
    }

    /** The figure of {@link #addedFailuresPerThousand} as failed requests a day at its scenario's rate, or 0. */
    public double addedFailuresPerDay() {
        ScenarioScore s = addedFailuresScenario == null ? null : score(addedFailuresScenario);
        return s == null ? 0 : s.addedFailuresPerDay();
    }

    static String perThousand(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    /** A count a day in round words: 1,790,000, or 12,300 (three significant digits). */
    static String aDay(double d) {
        long v = Math.round(d);
        if (Math.abs(v) >= 1000) {
            long scale = (long) Math.pow(10, (long) Math.floor(Math.log10(Math.abs(v))) - 2);
            v = Math.round(v / (double) scale) * scale;
        }
        return String.format(Locale.ROOT, "%,d", v);
    }

    static String perDay(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }

    /** Whether {@code check} finds an error in the written file: never recommended, not even as a trade-off. */
    public boolean undeployable() {
        return violations.stream().anyMatch(v -> v.startsWith(CHECK_ERROR));
    }

    static final String CHECK_ERROR = "check finds an error in it: ";

    /** The same evaluation with one more constraint broken. */
    Evaluation violating(String why) {
        List<String> more = new ArrayList<>(violations);
        more.add(why);
        return with(scores, more);
    }

    /**
     * The same evaluation with the runs of {@code exact} in place of its own: only for runs that differ in figures the
     * scoring does not read (the detections the cap refused), so every score stays as it is.
     */
    Evaluation withScores(List<ScenarioScore> exact) {
        return with(exact, violations);
    }

    private Evaluation with(List<ScenarioScore> runs, List<String> broken) {
        return new Evaluation(
                candidate,
                setting,
                written,
                runs,
                benefitPercent,
                worstSeedBenefitPercent,
                falseEjections,
                addedFailurePoints,
                addedFailuresPerThousand,
                addedFailuresScenario,
                allowedAddedPerThousand,
                broken);
    }

    /** Harm in one number: false ejections per run (summed) plus added failures in percentage points. */
    public double harm() {
        return falseEjections + addedFailurePoints;
    }

    public boolean admissible() {
        return violations.isEmpty();
    }

    /** The score of the scenario with this name, or null. */
    public ScenarioScore score(String name) {
        for (ScenarioScore s : scores) {
            if (s.scenario().name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** Mean time to detect over the should-eject scenarios that detected, NaN when none did. */
    public double detectSeconds() {
        return scores.stream()
                .filter(s -> s.scenario().expect() == Expectation.EJECT)
                .mapToDouble(ScenarioScore::detectSeconds)
                .filter(d -> !Double.isNaN(d))
                .average()
                .orElse(Double.NaN);
    }

    /** Mean time to return over the should-eject scenarios that ejected, NaN when none did. */
    public double returnSeconds() {
        return scores.stream()
                .filter(s -> s.scenario().expect() == Expectation.EJECT)
                .mapToDouble(ScenarioScore::returnSeconds)
                .filter(d -> !Double.isNaN(d))
                .average()
                .orElse(Double.NaN);
    }
}
