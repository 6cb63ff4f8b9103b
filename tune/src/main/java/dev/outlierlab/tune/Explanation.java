package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.check.Severity;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words of a tune result: the diff from the current file, one paragraph of why the recommendation beats the
 * current settings (the cap's arithmetic, what each changed field does, the figures on the default scenario's case and the
 * should-not-eject ones), what no setting catches here, which detectors one caller's traffic lets run, and
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
                .detectors(detectors(req))
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
            s.add("The recommendation " + changes(current.setting(), best.setting(), req) + ".");
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

    /** The changed fields in words, e.g. "raises max_ejection_percent from 10 to 17, which admits 1 of 6 hosts". */
    private static String changes(Setting a, Setting b, TuneRequest req) {
        List<String> own = req.target().changes(a, b, req);
        if (own != null) {
            return words(own);
        }
        List<String> out = new ArrayList<>();
        if (a.maxEjectionPercent() != b.maxEjectionPercent()) {
            int admits = 0;
            while (admits < req.hosts()
                    && req.target()
                            .admits(req.envoyVersion().capRule(), admits, req.hosts(), b.maxEjectionPercent(), false)) {
                admits++;
            }
            out.add((b.maxEjectionPercent() > a.maxEjectionPercent() ? "raises" : "lowers") + " "
                    + req.target().capKey()
                    + " from "
                    + a.maxEjectionPercent() + " to " + b.maxEjectionPercent() + ", which admits " + admits + " of "
                    + req.hosts() + " hosts at once");
        }
        if (a.alwaysEjectOneHost() != b.alwaysEjectOneHost()) {
            out.add(
                    b.alwaysEjectOneHost()
                            ? "sets always_eject_one_host, so the first host may always go"
                            : "clears always_eject_one_host");
        }
        if (a.consecutive5xx() != b.consecutive5xx()) {
            out.add(
                    b.consecutive5xx() == 0
                            ? "turns consecutive-5xx ejection off (random failures at a shared outage's "
                                    + "rate reach a short run of 5xx on healthy hosts)"
                            : "sets consecutive_5xx to " + b.consecutive5xx()
                                    + (a.consecutive5xx() == 0 ? " (on)" : ""));
        }
        if (a.successRateStdevFactor() != b.successRateStdevFactor()
                || (b.successRateStdevFactor() > 0 && a.successRateRequestVolume() != b.successRateRequestVolume())) {
            out.add(
                    b.successRateStdevFactor() == 0
                            ? "turns success-rate ejection off"
                            : "ejects by success rate at " + Setting.factor(b.successRateStdevFactor())
                                    + " standard deviations " + "below the mean, judging hosts with "
                                    + b.successRateRequestVolume() + " requests an interval");
        }
        if (a.failurePercentageThreshold() != b.failurePercentageThreshold()
                || (b.failurePercentageThreshold() > 0
                        && a.failurePercentageRequestVolume() != b.failurePercentageRequestVolume())) {
            out.add(
                    b.failurePercentageThreshold() == 0
                            ? "turns failure-percentage ejection off"
                            : "ejects hosts failing " + b.failurePercentageThreshold() + " % or more of at least "
                                    + b.failurePercentageRequestVolume() + " requests an interval");
        }
        if (a.keepOnPassingCheck() != b.keepOnPassingCheck()) {
            out.add(
                    b.keepOnPassingCheck()
                            ? "sets successful_active_health_check_uneject_host to false, so a passing "
                                    + "active health check no longer returns an ejected host early (a host failing part of its requests "
                                    + "passes its probes, and with the default it was back within one probe interval)"
                            : "sets successful_active_health_check_uneject_host to true, so a passing health check returns an "
                                    + "ejected host early");
        }
        if (a.intervalNanos() != b.intervalNanos()) {
            out.add(
                    b.intervalNanos() > a.intervalNanos()
                            ? "lengthens the interval from "
                                    + Durations.format(a.intervalNanos()) + " to " + Durations.format(b.intervalNanos())
                                    + " so that one caller's requests reach the volumes"
                            : "shortens the interval from "
                                    + Durations.format(a.intervalNanos()) + " to " + Durations.format(b.intervalNanos())
                                    + ", so that a detector acts within seconds of a fault rather than minutes");
        }
        if (a.baseEjectionTimeNanos() != b.baseEjectionTimeNanos()) {
            out.add("sets base_ejection_time to " + Durations.format(b.baseEjectionTimeNanos()));
        }
        return words(out);
    }

    /** Changes joined as one clause: "a, b and c". */
    private static String words(List<String> out) {
        if (out.isEmpty()) {
            return "keeps the same settings, written in the target's own format";
        }
        if (out.size() == 1) {
            return out.get(0);
        }
        return String.join(", ", out.subList(0, out.size() - 1)) + " and " + out.get(out.size() - 1);
    }

    /** What one caller's traffic lets each detector do at the current interval. */
    static List<String> detectors(TuneRequest req) {
        List<String> own = req.target().detectors(req);
        if (own != null) {
            return own;
        }
        OutlierDetectionConfig c = req.current();
        long interval = c.intervalNanos();
        long v = req.perHostPerInterval(interval);
        String per = "each host gets " + v + " requests per " + Durations.format(interval) + " interval from "
                + (req.clients() == 1 ? "the caller" : "each of the " + req.clients() + " callers");
        List<String> out = new ArrayList<>();
        boolean srRuns = v >= c.successRateRequestVolume() && req.hosts() >= c.successRateMinimumHosts();
        FixStyle style = TuneWords.of(req, null).advice().style();
        if (c.enforcingPercent(EjectionType.SUCCESS_RATE) == 0 && !req.target().choosesSuccessRate()) {
            out.add("success rate never ejects: it needs enforcing_success_rate above 0, which "
                    + style.whyCannot("enforcing_success_rate") + "; " + per);
        } else if (srRuns) {
            out.add("success rate can run: " + per + ", at least success_rate_request_volume "
                    + c.successRateRequestVolume() + ", and " + req.hosts() + " hosts reach success_rate_minimum_hosts "
                    + c.successRateMinimumHosts());
        } else {
            String because = v < c.successRateRequestVolume()
                    ? per + ", under success_rate_request_volume " + c.successRateRequestVolume()
                    : req.hosts() + " hosts are fewer than success_rate_minimum_hosts " + c.successRateMinimumHosts();
            long v30 = req.perHostPerInterval(30 * Durations.SECOND);
            out.add("success rate cannot run: " + because + "; "
                    + (v * 4 / 5 >= SearchSpace.MIN_SUCCESS_RATE_VOLUME
                            ? "a volume of " + v * 4 / 5 + " would let it"
                            : v30 * 4 / 5 >= SearchSpace.MIN_SUCCESS_RATE_VOLUME
                                    ? "a 30s interval with a volume of " + v30 * 4 / 5
                                            + " would let it, at the cost of slower detection"
                                    : "no volume a host reaches is enough to compare rates"));
        }
        boolean fpRuns = v >= c.failurePercentageRequestVolume() && req.hosts() >= c.failurePercentageMinimumHosts();
        if (!req.target().hasFailurePercentage() && c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE) == 0) {
            out.add("failure percentage never ejects: it needs enforcing_failure_percentage above 0 and a "
                    + "failure_percentage_threshold, which " + style.whyCannot("failure_percentage_threshold"));
        } else {
            out.add("failure percentage "
                    + (fpRuns
                            ? "can run: " + per + ", at least failure_percentage_request_volume "
                                    + c.failurePercentageRequestVolume()
                            : v >= c.failurePercentageRequestVolume()
                                    ? "cannot run: " + req.hosts() + " hosts are fewer than "
                                            + "failure_percentage_minimum_hosts " + c.failurePercentageMinimumHosts()
                                            + " ("
                                            + per + ", enough "
                                            + "for failure_percentage_request_volume "
                                            + c.failurePercentageRequestVolume()
                                            + ")"
                                            + (req.target().choosesFailurePercentageVolume()
                                                    ? "; it can with failure_percentage_minimum_hosts " + req.hosts()
                                                    : "")
                                    : "cannot run at failure_percentage_request_volume "
                                            + c.failurePercentageRequestVolume() + " (" + per + ")"
                                            + (v * 4 / 5 >= SearchSpace.MIN_FAILURE_PERCENTAGE_VOLUME
                                                    ? "; it can with a volume of " + v * 4 / 5
                                                    : ""))
                    + (req.target().hasFailurePercentage()
                            ? ""
                            : "; " + req.target().description() + " cannot set it"));
        }
        if (!req.target().hasConsecutive()) {
            out.add("consecutive failures: gRPC's outlier detection has no consecutive detector; only success rate "
                    + "and failure percentage eject, each once a sweep");
            return out;
        }
        out.add(
                "consecutive 5xx can run: it needs no volume, only a run of failures in one caller's requests to the host, "
                        + "so it catches dead hosts at any traffic and partial failures only when their runs are long");
        return out;
    }

    static String pct(double d) {
        return String.format(Locale.ROOT, "%.1f %%", d);
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
