package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code tune}'s text report: the scorecard of the current settings scenario by scenario, the front of benefit
 * against harm, the recommendation in the target's own format with its diff and {@code check}'s verdict, why, which
 * detectors can run, and what no setting can catch here.
 */
public final class TuneText {
    private TuneText() {}

    public static String render(TuneResult r) {
        TuneRequest q = r.request();
        TuneWords w = r.words();
        StringBuilder out = new StringBuilder();
        out.append("tune: ")
                .append(q.hosts())
                .append(" hosts, ")
                .append(q.rps())
                .append(" rps, ")
                .append(q.clients())
                .append(q.clients() == 1 ? " caller" : " callers")
                .append(", target ")
                .append(q.target().flag())
                .append(" ")
                .append(q.target().engineLabel(q.envoyVersion()))
                .append(", ")
                .append(q.suite().size())
                .append(" scenarios, ")
                .append(r.candidates())
                .append(" candidates screened on ")
                .append(q.screenSeeds())
                .append(q.screenSeeds() == 1 ? " seed" : " seeds")
                .append(", finalists on ")
                .append(q.seeds())
                .append(", ")
                .append(r.runs())
                .append(" runs\n");
        w.say(q.notes()).forEach(n -> out.append("  ").append(n).append('\n'));
        out.append('\n');
        if (r.headline() != null) {
            out.append(r.headline()).append("\n\n");
        }
        out.append("Current settings (")
                .append(q.sourceLabel())
                .append("): ")
                .append(q.target()
                        .label(r.current().setting(), r.current().written().profile(), q.hosts()))
                .append('\n');
        out.append(scorecard(r.current()));
        out.append(summary(r.current(), w)).append("\n\n");
        boolean slow = r.front().stream().anyMatch(e -> e.scores().stream().anyMatch(ScenarioScore::delayed));
        out.append("Front: benefit (avoidable failures "
                + (slow ? "and slow requests " : "")
                + "removed, mean over the should-eject scenarios) against harm\n"
                + "(false ejections per run plus failures added, in points); +failed/1k: requests failed beyond\n"
                + "detection off per 1,000 where nothing should be ejected (the worst such scenario); * recommended\n");
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of(
                "",
                "benefit",
                "worst seed",
                "harm",
                "false ej.",
                "added pts",
                "+failed/1k",
                "detect s",
                "return s",
                "setting"));
        for (Evaluation e : r.front()) {
            rows.add(List.of(
                    e == r.recommended() ? "*" : "",
                    pct(e.benefitPercent()),
                    pct(e.worstSeedBenefitPercent()),
                    two(e.harm()),
                    two(e.falseEjections()),
                    two(e.addedFailurePoints()),
                    e.addedFailuresScenario() == null ? "-" : one(e.addedFailuresPerThousand()),
                    one(e.detectSeconds()),
                    one(e.returnSeconds()),
                    q.target().label(e.setting(), e.written().profile(), q.hosts())
                            + (e.admissible() ? "" : " (breaks a constraint)")));
        }
        out.append(table(rows, 9)).append('\n');
        boolean spliced = r.deployable() != null && r.deployable().text() != null;
        out.append("Recommendation, as ")
                .append(q.target().description())
                .append(spliced ? " (" + q.source() + " with only its outlier-detection fields changed)" : "")
                .append(":\n")
                .append(indent(r.recommendedFile()))
                .append('\n');
        if (q.source() == null && q.target().placeholdersWithoutFile()) {
            out.append("  (without --from, the names and endpoints above are placeholders: put the changed fields "
                    + "into your own file, or tune --from it)\n\n");
        } else if (r.deployable() != null && r.deployable().notDone() != null) {
            out.append("  (not spliced into ")
                    .append(q.source())
                    .append(": ")
                    .append(r.deployable().notDone())
                    .append(")\n\n");
        }
        if (spliced && r.deployable().patch() != null) {
            out.append(q.target().patchHeading())
                    .append(indent(r.deployable().patch()))
                    .append('\n');
        }
        out.append(
                        spliced
                                ? "Diff against " + q.source() + ":\n"
                                : "Diff against the current file (both as the lab " + "writes them):\n")
                .append(r.diff().isEmpty() ? "  (no change)\n" : indent(r.diff()))
                .append('\n');
        long errors = r.recommendationFindings().stream()
                .filter(f -> f.startsWith("error "))
                .count();
        out.append("check: ")
                .append(errors == 0 ? "no errors" : errors + " errors")
                .append(
                        r.recommendationFindings().isEmpty()
                                ? ""
                                : ", " + r.recommendationFindings().size() + " findings")
                .append('\n');
        w.say(r.recommendationFindings())
                .forEach(f -> out.append("  ").append(f).append('\n'));
        out.append('\n').append("Why: ").append(w.say(r.why())).append("\n\n");
        if (r.breaks() != null) {
            out.append(r.breaks().words()).append("\n\n");
        }
        out.append("Scorecard of the recommendation:\n")
                .append(scorecard(r.recommended()))
                .append(summary(r.recommended(), w))
                .append("\n\n");
        out.append("What the detectors can do with this traffic:\n");
        w.say(r.detectors()).forEach(d -> out.append("  - ").append(d).append('\n'));
        List<String> cannot = w.cannotSet(q);
        if (!cannot.isEmpty()) {
            out.append('\n').append("What ").append(q.target().description()).append(" cannot set:\n");
            cannot.subList(0, cannot.size() - 1)
                    .forEach(l -> out.append("  ").append(l).append('\n'));
            out.append(indent(indent(cannot.get(cannot.size() - 1))));
        }
        out.append("\nWhat no setting can catch here:\n");
        w.say(r.cannotCatch()).forEach(d -> out.append("  - ").append(d).append('\n'));
        return out.toString();
    }

    /**
     * The scorecard: failures are the callers' (the objective's); with the route's retries in effect a column gives
     * the attempts' failures beside them, what the detectors see, so a table without retries is as it always was.
     */
    private static String scorecard(Evaluation e) {
        boolean retried = e.scores().stream().anyMatch(ScenarioScore::retried);
        boolean delayed = e.scores().stream().anyMatch(ScenarioScore::delayed);
        List<List<String>> rows = new ArrayList<>();
        rows.add(header(retried, delayed));
        for (ScenarioScore s : e.scores()) {
            List<String> row = new ArrayList<>(List.of(
                    s.scenario().name(),
                    s.scenario().expect().key(),
                    two(s.failedPercentDuringFault(false)),
                    two(s.failedPercentDuringFault(true)),
                    pct(s.removedPercent()),
                    two(s.falseEjections()),
                    Integer.toString(s.maxEjectedAtOnce()),
                    one(s.panicSeconds()),
                    one(s.detectSeconds()),
                    one(s.returnSeconds())));
            if (delayed) {
                row.add(4, one(s.slowPerThousand(false)));
                row.add(5, one(s.slowPerThousand(true)));
            }
            if (retried) {
                row.add(3, two(s.upstreamFailedPercent()));
            }
            rows.add(row);
        }
        return table(rows, 1)
                + (retried
                        ? "  (failed: requests that failed for their callers, after the route's retries; upstream:"
                                + " failed attempts to hosts in % of the attempts, what the detectors see)\n"
                        : "")
                + (delayed
                        ? "  (slow/1k: requests per 1,000 answered only after waiting for a timed-out attempt, then"
                                + " retried on another host, with this setting and with detection off; removed counts"
                                + " each as a failure)\n"
                        : "");
    }

    private static List<String> header(boolean retried, boolean delayed) {
        List<String> h = new ArrayList<>(List.of(
                "scenario",
                "expect",
                "failed % in fault",
                "off",
                "removed",
                "false ej.",
                "most out",
                "panic s",
                "detect s",
                "return s"));
        if (delayed) {
            h.add(4, "slow/1k");
            h.add(5, "off");
        }
        if (retried) {
            h.add(3, "upstream %");
        }
        return h;
    }

    private static String summary(Evaluation e, TuneWords w) {
        return w.say(summary(e));
    }

    private static String summary(Evaluation e) {
        return "benefit " + pct(e.benefitPercent()) + " (worst seed " + pct(e.worstSeedBenefitPercent()) + "), harm "
                + two(e.harm())
                + (e.admissible() ? "; meets every constraint" : "; breaks: " + String.join("; ", e.violations()));
    }

    /** Columns left-aligned from {@code textFrom} on, numbers right-aligned before it (column 0 is text). */
    private static String table(List<List<String>> rows, int textFrom) {
        int[] w = new int[rows.get(0).size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                w[i] = Math.max(w[i], row.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder("  ");
            for (int i = 0; i < row.size(); i++) {
                String fmt = i == 0 || i >= textFrom ? "%-" + w[i] + "s" : "%" + w[i] + "s";
                line.append(String.format(Locale.ROOT, fmt, row.get(i))).append("  ");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String indent(String text) {
        StringBuilder sb = new StringBuilder();
        text.lines().forEach(l -> sb.append("  ").append(l).append('\n'));
        return sb.toString();
    }

    private static String pct(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.1f %%", d);
    }

    private static String two(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.2f", d);
    }

    private static String one(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.1f", d);
    }
}
