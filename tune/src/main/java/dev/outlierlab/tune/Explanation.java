package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Severity;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words of a tune result: the diff from the current file, one paragraph of why the recommendation beats the
 * current settings (the cap's arithmetic, what changed ({@link SettingChanges}), the figures on the default scenario's case and the
 * should-not-eject ones), what no setting catches here, which detectors one caller's traffic lets run ({@link DetectorReach}), and
 * {@code check}'s findings on the recommended file.
 */
final class Explanation {
    /** A should-eject scenario where the best setting removes less than this share is reported as not caught. */
    static final double CAUGHT_PERCENT = 10;

    private Explanation() {}

    static TuneResult result(
            TuneRequest req, Evaluation current, List<Evaluation> front, Evaluation best, int candidates, long runs) {
        String diff = LineDiff.diff(
                "current (" + req.sourceLabel() + ")",
                current.written().text(),
                "recommended",
                best.written().text());
        return TuneResult.builder()
                .request(req)
                .current(current)
                .front(front)
                .recommended(best)
                .diff(diff)
                .why(why(req, current, best, front))
                .cannotCatch(CannotCatch.of(req, current, front, best))
                .detectors(DetectorReach.of(req))
                .recommendationFindings(findings(req, best.written()))
                .candidates(candidates)
                .runs(runs)
                .build();
    }

    /** {@code check}'s findings on a written file, one line each, errors first. */
    static List<String> findings(TuneRequest req, Target.Written written) {
        CheckInputs.Loaded loaded = req.target().check(written.text());
        CheckReport report = CheckReport.ofFiles(
                "recommended", List.of(loaded), req.hosts(), req.rpsPerCaller(), req.envoyVersion());
        List<String> out = new ArrayList<>();
        for (Severity s : List.of(Severity.ERROR, Severity.WARNING, Severity.NOTE)) {
            for (Finding f : report.findings()) {
                if (f.severity() == s) {
                    out.add(s.name().toLowerCase(Locale.ROOT) + " " + f.rule().id() + ": " + f.message());
                }
            }
        }
        return out;
    }

    /**
     * Whether {@code check} finds an error in the file, or a cap that admits no host at any severity, or a gateway
     * statistical rule that cannot fire: check calls these warnings (nobody chose them), but a tuner must never
     * recommend them.
     */
    static boolean hasCheckError(List<String> findings) {
        return findings.stream()
                .anyMatch(f -> f.startsWith("error ")
                        || f.matches("^[a-z]+ cap-admits-no-host: .*")
                        || f.startsWith("warning gateway-statistical-rule-cannot-fire: "));
    }

    private static String why(TuneRequest req, Evaluation current, Evaluation best, List<Evaluation> front) {
        List<String> s = new ArrayList<>();
        ScenarioScore seedCur = current.score("one-host-partial");
        ScenarioScore seedBest = best.score("one-host-partial");
        OutlierDetectionConfig cur = req.current();
        double firstShare = 100.0 / req.hosts();
        String sentence = "With the current settings detection removes " + pct(current.benefitPercent())
                + " of the avoidable failures over the should-eject scenarios";
        if (seedCur != null) {
            sentence += "; with one host failing a third of its requests, "
                    + pct(seedCur.failedPercentDuringFault(false)) + " of requests fail during the fault";
            if (seedCur.overflows() > 0
                    && req.target().can(Target.Can.CAP)
                    && !req.target()
                            .admits(
                                    req.envoyVersion().capRule(),
                                    0,
                                    req.hosts(),
                                    cur.maxEjectionPercent(),
                                    cur.alwaysEjectOneHost())) {
                sentence += ", and the cap refuses every ejection (" + fmt(seedCur.overflows()) + " detections a run): "
                        + req.target().capKey() + " " + cur.maxEjectionPercent() + " admits no host of " + req.hosts()
                        + ", as 100 x 1 / " + req.hosts() + " = " + String.format(Locale.ROOT, "%.1f", firstShare)
                        + " % is above it";
            }
        }
        s.add(sentence + ".");
        if (!best.admissible()) {
            s.add(
                    0,
                    (best.addsFailuresWhereNoneShould()
                                    ? "No setting the target can express catches a failing host here without failing "
                                            + "more requests than detection off where nothing should be ejected, so "
                                            + "the recommendation is the best trade-off (the fewest added failures "
                                            + "among those that remove at least half of what the best one removes), "
                                            + "and it has a cost: "
                                    : "No setting the target can express meets every constraint here, so the "
                                            + "recommendation is the best trade-off on the front, and it has a cost: ")
                            + String.join("; ", best.violations())
                            + ". "
                            + loosen(req, best));
        }
        String bought = boughtWithFailures(req, best, front);
        if (bought != null) {
            s.add(0, bought);
        }
        if (best == current && current.benefitPercent() > 0) {
            s.add("No candidate the target can express did better on the suite without breaking a constraint, so the "
                    + "recommendation is to keep them.");
        } else if (best == current) {
            s.add("No setting the target can express removes any avoidable failure here: "
                    + (req.clients() > 1
                            ? "each of the " + req.clients()
                                    + " callers sees too few requests a host to tell a failing host " + "from noise"
                            : "every candidate that ejects also breaks "
                                    + req.target().description() + "'s checks")
                    + "; detection stays as it is (see what the detectors can do below).");
        } else {
            s.add("The recommendation " + SettingChanges.words(current.setting(), best.setting(), req) + ".");
            String result = "It removes " + pct(best.benefitPercent()) + " (worst seed "
                    + pct(best.worstSeedBenefitPercent()) + ")";
            if (seedBest != null) {
                result += ", and with one host failing a third of its requests "
                        + pct(seedBest.failedPercentDuringFault(false))
                        + " of requests fail during the fault (" + pct(seedBest.failedPercentDuringFault(true))
                        + " with detection off)";
            }
            s.add(result + ".");
        }
        String slow = SlowRequests.sentence(current, best);
        if (slow != null) {
            s.add(slow);
        }
        List<String> quiet = new ArrayList<>();
        List<String> noisy = new ArrayList<>();
        for (ScenarioScore sc : best.scores()) {
            if (sc.scenario().expect() == Expectation.NONE) {
                if (sc.runs().stream().allMatch(r -> r.ejections() == 0)) {
                    quiet.add(sc.scenario().name());
                } else {
                    noisy.add(sc.scenario().name() + " (" + callersPay(sc) + ")");
                }
            }
        }
        if (!quiet.isEmpty()) {
            s.add("It ejected nothing in " + String.join(", ", quiet)
                    + (req.seeds() == 1 ? " on its seed" : " on any of " + req.seeds() + " seeds")
                    + (noisy.isEmpty() ? "." : ", but ejected hosts in " + String.join(", ", noisy) + "."));
        } else if (!noisy.isEmpty()) {
            s.add("It ejected hosts in " + String.join(", ", noisy) + ", where nothing should go.");
        }
        return String.join(" ", s);
    }

    /**
     * Why an admissible setting that removes nothing is recommended: every setting on the front that removes
     * something fails more requests than detection off where nothing should be ejected ({@link Choice#harmsLeast}).
     * Names the one that removes the most and what it costs; null when that is not the case.
     */
    private static String boughtWithFailures(TuneRequest req, Evaluation best, List<Evaluation> front) {
        Evaluation most = Choice.boughtWithFailures(best, front);
        if (most == null) {
            return null;
        }
        Choice.Spared spared = Choice.spared(most, best);
        return "Every setting the target can express that removes avoidable failures here fails more requests than "
                + "detection off where nothing should be ejected, more than it spares where a host fails: the one that "
                + "removes the most, "
                + req.target().label(most.setting(), most.written().profile(), req.hosts()) + " ("
                + pct(most.benefitPercent()) + "), spares at most " + Evaluation.perThousand(spared.perThousand())
                + " requests per 1,000 from failing or waiting"
                + (spared.scenario() == null ? "" : " (in " + spared.scenario() + ")") + ", but in "
                + most.addedFailuresScenario() + " fails " + Evaluation.perThousand(most.addedFailuresPerThousand())
                + " more per 1,000 than detection off (" + Evaluation.aDay(most.addedFailuresPerDay())
                + " a day at " + req.rps() + " rps) and breaks "
                + most.violations().size()
                + (most.violations().size() == 1 ? " constraint" : " constraints in all")
                + ". So the recommendation is the admissible setting that harms least; what it leaves uncaught is "
                + "listed below.";
    }

    /**
     * What the callers pay for a setting's ejections where nothing should go, against detection off: e.g. {@code
     * 517.1 more failed requests per 1,000 than with detection off}, or {@code no more failed requests than ...}.
     */
    static String callersPay(ScenarioScore sc) {
        double d = sc.addedFailuresPerThousand();
        if (Math.abs(d) < 0.05) {
            return "no more failed requests than with detection off";
        }
        return Evaluation.perThousand(Math.abs(d)) + (d > 0 ? " more" : " fewer")
                + " failed requests per 1,000 than with detection off";
    }

    /** Which of the user's constraints would admit the trade-off, in words. */
    private static String loosen(TuneRequest req, Evaluation best) {
        double perDay = 0;
        int most = 0;
        for (ScenarioScore sc : best.scores()) {
            if (sc.seedsWithFalseEjections() > 0) {
                perDay = Math.max(perDay, sc.falseEjectionsPerDay());
            }
            most = Math.max(most, sc.maxEjectedAtOnce());
        }
        List<String> ways = new ArrayList<>();
        if (perDay > req.maxFalsePerDay()) {
            ways.add("--max-false-per-day " + Evaluation.perDay(Math.ceil(perDay)));
        }
        if (most > req.maxEjected() && req.target().can(Target.Can.CAP)) {
            ways.add("--max-ejected " + most);
        }
        if (best.addsFailuresWhereNoneShould()) {
            ways.add("--max-added-failures " + Evaluation.perThousand(Math.ceil(best.addedFailuresPerThousand())));
        }
        return ways.isEmpty()
                ? "It is the least harm among the settings that remove at least half of what the best " + "one removes."
                : "It is the least harm among the settings that remove at least half of what the best "
                        + "one removes; " + String.join(" and ", ways) + " would accept it.";
    }

    static String pct(double d) {
        return String.format(Locale.ROOT, "%.1f %%", d);
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
