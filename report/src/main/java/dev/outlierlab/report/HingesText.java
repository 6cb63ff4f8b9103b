package dev.outlierlab.report;

import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.hinges.IntervalVolume;
import dev.outlierlab.sim.hinges.PatternContrast;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "What the answer hinges on" section of a run's text report: how the traffic is shared over the callers,
 * whether each interval detector can run on one caller's share ({@link IntervalVolume}), and, in one line,
 * whether the other fault pattern changes the decisions ({@link PatternContrast}) with the command that shows it.
 * The browser shows the same lines ({@link #lines}).
 */
public final class HingesText {
    private HingesText() {}

    /** One labelled line of the section. */
    public record Line(String label, String text) {}

    /** The section, with a blank line before it. */
    public static String render(RunResult r, PatternContrast contrast, String command) {
        StringBuilder out = new StringBuilder("\nWhat the answer hinges on\n");
        for (Line l : lines(r, contrast, command)) {
            out.append(String.format(Locale.ROOT, "  %-13s %s%n", l.label(), l.text()));
        }
        return out.toString();
    }

    /**
     * @param contrast the other pattern's run, or null when no fault has the even or random pattern
     * @param command  the command that made {@code r}, to which the contrast's {@code --set} options are added
     */
    public static List<Line> lines(RunResult r, PatternContrast contrast, String command) {
        Scenario s = r.scenario();
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("callers", callers(s)));
        for (IntervalVolume v : IntervalVolume.of(s)) {
            lines.add(new Line(v.settingPrefix().replace('_', ' ').replace("percentage", "pct"), volume(v, s)));
        }
        if (contrast != null) {
            lines.add(new Line("pattern", pattern(r, contrast, command)));
        }
        return lines;
    }

    /** {@code 600 rps over 50 callers: 12 rps each, 2 per host} or the single detector's share. */
    public static String callers(Scenario s) {
        int p = s.traffic().clients();
        long rps = s.traffic().rps();
        int hosts = s.cluster().size();
        if (p == 1) {
            return "one detector sees all traffic (traffic.clients 1): " + Numbers.count(rps) + " rps, "
                    + amount((double) rps / hosts) + " per host; a mesh has one per calling pod (--clients P)";
        }
        return Numbers.count(p) + " callers, each its own detector with its own rotation and panic state: "
                + Numbers.count(rps) + " rps over " + Numbers.count(p) + " callers is " + amount((double) rps / p)
                + " rps each, " + amount((double) rps / p / hosts) + " per host";
    }

    private static String volume(IntervalVolume v, Scenario s) {
        String interval = Numbers.seconds(s.outlierDetection().intervalNanos());
        String who = s.traffic().clients() == 1 ? "the detector sees" : "each caller sends";
        String share = who + " about " + amount(v.perCaller()) + " requests per " + interval + " interval, "
                + amount(v.perHost()) + " to each host";
        String volume = v.settingPrefix() + "_request_volume " + v.requestVolume();
        String minimum = v.settingPrefix() + "_minimum_hosts " + v.minimumHosts();
        String text = switch (v.verdict()) {
            case NEVER_TOO_FEW_HOSTS -> "can never run: the cluster has " + v.hosts() + " hosts, fewer than " + minimum;
            case NEVER_TOO_LITTLE_TRAFFIC ->
                "can never run: " + share + ", below " + volume + " (" + v.minimumHosts()
                        + " hosts with " + v.requestVolume() + " each would need "
                        + Numbers.count(v.minimumHosts() * v.requestVolume()) + " from one caller)";
            case ONLY_WITH_FEWER_HOSTS ->
                "runs only while ejections leave fewer hosts in rotation: " + share + ", below " + volume + " ("
                        + minimum + ")";
            case RUNS -> "runs: " + share + ", at least " + volume + ", " + v.hosts() + " hosts >= " + minimum;
        };
        if (v.enforcingPercent() == 0 && !v.verdict().never()) {
            text += "; enforcing 0 %: it detects, never ejects";
        }
        return text;
    }

    private static String pattern(RunResult r, PatternContrast c, String command) {
        String how =
                c.otherPattern() == FaultPattern.RANDOM ? "at random instead of evenly" : "evenly instead of at random";
        String see = command + " "
                + String.join(" ", c.sets().stream().map(x -> "--set " + x).toList());
        if (c.other() == null) {
            return "failing " + how + " was not compared here (the run is long to repeat); see " + see;
        }
        if (!c.differ()) {
            return "failing " + how + " gives the same decisions (" + see + ")";
        }
        return "failing " + how + " changes the decisions: " + ejections(c.other()) + " instead of " + ejections(r)
                + "; see " + see;
    }

    private static String ejections(RunResult r) {
        long n = r.summary().ejectionsEnforced();
        long first = PatternContrast.firstEjectionNanos(r);
        return Numbers.count(n) + (n == 1 ? " ejection" : " ejections")
                + (n > 0 && first >= 0 ? " (first at " + Numbers.seconds(first) + ")" : "") + ", "
                + Numbers.count(r.summary().ejectionsDetected())
                + (r.summary().ejectionsDetected() == 1 ? " detection" : " detections");
    }

    /** A figure as a whole number when it is one, else with one decimal. */
    static String amount(double d) {
        return Math.abs(d - Math.rint(d)) < 1e-9 ? Numbers.count((long) Math.rint(d)) : Numbers.one(d);
    }
}
