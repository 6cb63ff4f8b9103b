package dev.outlierlab.report;

import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.HostTally;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text form of a run: the inputs, the headline metrics, and a table of
 * ejections, refusals by the cap and returns with times and reasons, then Envoy's non-zero statistics.
 */
public final class TextReport {
    private TextReport() {}

    /**
     * @param maxEvents most table rows to print (the rest are counted); JSON output has them all
     * @param source    where the traffic came from, e.g. "synthetic" or "trace requests.jsonl"
     */
    public static String render(RunResult r, int maxEvents, String source) {
        return render(r, maxEvents, source, null);
    }

    /**
     * @param hinges the "What the answer hinges on" section ({@link HingesText}), shown before the decisions, or
     *               null
     */
    public static String render(RunResult r, int maxEvents, String source, String hinges) {
        return render(r, maxEvents, source, hinges, FixAdvice.ENVOY);
    }

    /** As {@link #render(RunResult, int, String, String)}, the verdict's fix said in the input's own fields. */
    public static String render(RunResult r, int maxEvents, String source, String hinges, FixAdvice advice) {
        return render(r, maxEvents, source, hinges, true, advice, null);
    }

    /**
     * The report of a replay's prediction: as {@link #render(RunResult, int, String)} without the failed requests,
     * which are the log's own (the replay reports them apart, as recorded).
     */
    public static String renderPrediction(RunResult r, int maxEvents, String source) {
        return renderPrediction(r, maxEvents, source, null, FixAdvice.ENVOY);
    }

    /**
     * A replay's prediction for an incident: headed by the settings (not a run's name and seed: nothing here is
     * drawn), the decisions in the log's clock, the fix in the settings' own fields.
     */
    public static String renderPrediction(RunResult r, int maxEvents, String source, LogClock clock, FixAdvice advice) {
        return render(r, maxEvents, source, null, false, advice, clock);
    }

    private static String render(
            RunResult r,
            int maxEvents,
            String source,
            String hinges,
            boolean failures,
            FixAdvice advice,
            LogClock clock) {
        StringBuilder out = new StringBuilder();
        Scenario s = r.scenario();
        RunSummary sum = r.summary();
        String rules = s.envoyVersion().equals(EnvoyVersion.DEFAULT) ? "" : ", Envoy " + s.envoyVersion() + "'s rules";
        if (clock == null) {
            out.append("outlier-lab run: ")
                    .append(Wording.printable(s.name()))
                    .append(" (")
                    .append(Numbers.seconds(s.durationNanos()))
                    .append(", seed ")
                    .append(s.seed())
                    .append(rules)
                    .append(")\n\n");
        } else {
            out.append("settings of ")
                    .append(Wording.printable(s.name()))
                    .append(", replayed from ")
                    .append(clock.dateTime(0))
                    .append(" to ")
                    .append(clock.timeOfDay(s.durationNanos()))
                    .append(" (")
                    .append(Numbers.seconds(s.durationNanos()))
                    .append(rules)
                    .append(")\n\n");
        }
        out.append(RunVerdict.of(r, source != null).render(advice, s.outlierDetection()));
        out.append("Inputs\n");
        List<String> hosts = s.cluster().hosts();
        line(
                out,
                "cluster",
                hosts.size() + " hosts (" + range(hosts) + "), panic threshold "
                        + Numbers.one(s.cluster().panicThresholdPercent()).replace(".0", "") + " %"
                        + (s.cluster().panicThresholdPercent() == 0 ? " (panic mode off)" : ""));
        if (source == null) {
            int clients = s.traffic().clients();
            String pick = RoutingLines.pickRule(s);
            line(
                    out,
                    "traffic",
                    Numbers.count(s.traffic().rps()) + " requests/s, "
                            + (clients == 1
                                    ? (pick == null ? "round-robin" : pick) + " over hosts in rotation"
                                    : "shared over " + Numbers.count(clients) + " callers (request i from caller i mod "
                                            + clients + "), each " + (pick == null ? "round-robin" : pick)
                                            + " over its own hosts in rotation"));
            if (s.faults().isEmpty()) {
                line(out, "faults", "none");
            }
            for (int i = 0; i < s.faults().size(); i++) {
                FaultSpec f = s.faults().get(i);
                line(
                        out,
                        i == 0 ? "faults" : "",
                        String.join(", ", abbreviate(f.hosts())) + ": "
                                + trim(f.errorRatePercent())
                                + (f.degraded()
                                        ? " % answer 200" + patternText(f) + " with x-envoy-degraded"
                                        : " % fail" + patternText(f) + " with "
                                                + (f.result() != null
                                                        ? f.result().traceName()
                                                        : f.status()))
                                + " from " + Numbers.seconds(f.startNanos()) + " to " + Numbers.seconds(f.endNanos())
                                + (f.failsHealthCheck()
                                        ? ", failing active health checks (" + healthCheckText(f) + ")"
                                        : "")
                                + (f.latencyNanos() > 0
                                        ? ", answered after " + Durations.format(f.latencyNanos())
                                                + " (Envoy's outlier detection counts the status, not the time)"
                                        : ""));
            }
        } else {
            line(out, "traffic", source);
        }
        if (source == null) {
            RoutingLines.inputs(s, (label, text) -> line(out, label, text));
        }
        if (source == null && s.load().isShaped()) {
            line(out, "load", SignalsReport.loadText(s));
        }
        line(out, "outlier", settings(s.outlierDetection()));
        if (s.healthChecks() != null) {
            line(
                    out,
                    "health",
                    "active checks every " + Numbers.seconds(s.healthChecks().intervalNanos())
                            + ", unhealthy after " + s.healthChecks().unhealthyThreshold() + ", healthy after "
                            + s.healthChecks().healthyThreshold());
        }
        out.append("\nResults\n");
        line(out, "detections", Numbers.count(sum.ejectionsDetected()) + byType(r.stats()));
        line(out, "ejections", Numbers.count(sum.ejectionsEnforced()));
        line(
                out,
                "cap refused",
                Numbers.count(sum.ejectionsOverflow()) + " (overflow, max_ejection_percent "
                        + s.outlierDetection().maxEjectionPercent() + ")");
        line(out, "not enforced", Numbers.count(sum.ejectionsUnenforced()));
        line(out, "returns", Numbers.count(sum.returns()));
        if (!r.degradations().isEmpty()) {
            long marks = r.degradations().stream().filter(d -> d.degraded()).count();
            line(
                    out,
                    "degraded",
                    Numbers.count(marks) + " times marked, "
                            + Numbers.count(r.degradations().size() - marks)
                            + " cleared (x-envoy-degraded, detect_degraded_hosts: in rotation at a lower priority, not ejected)");
        }
        if (r.clients() == 1) {
            line(out, "most out", sum.maxEjectedAtOnce() + " of " + hosts.size() + " hosts ejected at once");
        } else {
            CallerLines.results(r, (label, text) -> line(out, label, text));
        }
        if (failures) {
            line(
                    out,
                    "failed",
                    Numbers.count(sum.failed()) + " of " + Numbers.count(sum.requests()) + " requests ("
                            + Numbers.two(sum.failedPercent()) + " %)");
        }
        if (source == null) {
            line(
                    out,
                    "in fault",
                    Numbers.count(sum.failedDuringFault()) + " of " + Numbers.count(sum.requestsDuringFault())
                            + " requests sent during a fault (" + Numbers.two(sum.failedPercentDuringFault()) + " %)");
            for (HostTally t : r.hosts()) {
                if (faultedByDraws(s, t.host()) && t.requestsDuringFault() > 0) {
                    line(
                            out,
                            "",
                            Wording.printable(t.host()) + ": " + Numbers.count(t.failedDuringFault()) + " of its "
                                    + Numbers.count(t.requestsDuringFault()) + " requests during a fault failed ("
                                    + Numbers.two(t.failedPercentDuringFault()) + " %)");
                }
            }
            line(
                    out,
                    "panic",
                    Numbers.one(sum.panicSeconds()) + " s"
                            + (sum.noHealthyUpstream() > 0
                                    ? "; " + Numbers.count(sum.noHealthyUpstream())
                                            + " requests found no healthy upstream"
                                    : ""));
            RoutingLines.results(r, (label, text) -> line(out, label, text));
        }
        if (source == null && SignalsReport.worthShowing(r)) {
            out.append(SignalsReport.text(r));
        }
        if (hinges != null) {
            out.append(hinges);
        }
        out.append("\nDecisions\n");
        if (r.eventCount() == 0) {
            out.append("  none: no host was detected\n");
        } else {
            out.append(DecisionRows.render(r, maxEvents, clock));
        }
        out.append(WhyNot.render(r, source != null));
        List<String> stats = new ArrayList<>();
        for (Map.Entry<String, Long> e : r.stats().entrySet()) {
            if (e.getValue() != 0) {
                stats.add("  " + e.getKey() + " " + e.getValue());
            }
        }
        out.append(
                stats.isEmpty()
                        ? "\nEnvoy stats (cluster.<name>.outlier_detection.*): all zero\n"
                        : "\nEnvoy stats (cluster.<name>.outlier_detection.*, non-zero)\n" + String.join("\n", stats)
                                + "\n");
        return out.toString();
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", label, text));
    }

    private static String byType(Map<String, Long> stats) {
        List<String> parts = new ArrayList<>();
        for (EjectionType t : EjectionType.values()) {
            long n = stats.getOrDefault("ejections_detected_" + t.statSuffix(), 0L);
            if (n > 0) {
                parts.add(t.statSuffix() + " " + Numbers.count(n));
            }
        }
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    /** Non-default settings first marked with *, then the headline defaults. */
    static String settings(OutlierDetectionConfig c) {
        List<String> parts = new ArrayList<>();
        OutlierSetting[] headline = {
            OutlierSetting.CONSECUTIVE_5XX,
            OutlierSetting.INTERVAL,
            OutlierSetting.BASE_EJECTION_TIME,
            OutlierSetting.MAX_EJECTION_PERCENT
        };
        for (OutlierSetting s : OutlierSetting.values()) {
            boolean isHeadline = List.of(headline).contains(s);
            if (c.isExplicit(s) || isHeadline) {
                Object v = ScenarioWriter.settingValue(s, c.get(s));
                parts.add(s.envoyName() + " " + v + (c.isExplicit(s) ? "*" : ""));
            }
        }
        boolean marked = parts.stream().anyMatch(p -> p.endsWith("*"));
        return String.join(", ", parts)
                + (marked ? "  (* = set; others are Envoy's defaults)" : "  (Envoy's defaults)");
    }

    private static String range(List<String> hosts) {
        return Wording.printable(
                hosts.size() == 1 ? hosts.get(0) : hosts.get(0) + " .. " + hosts.get(hosts.size() - 1));
    }

    private static List<String> abbreviate(List<String> hosts) {
        List<String> shown =
                hosts.size() <= 4 ? hosts : List.of(hosts.get(0), hosts.get(1), "...", hosts.get(hosts.size() - 1));
        return shown.stream().map(Wording::printable).toList();
    }

    private static String trim(double d) {
        String s = String.format(Locale.ROOT, "%.4f", d);
        return s.replaceAll("\\.?0+$", "");
    }

    /** How the fault spreads its failures, as the Inputs line says it: {@code " evenly"}, {@code " at random"}, ... */
    static String patternText(FaultSpec f) {
        if (f.errorRatePpm() == 0 || f.errorRatePpm() == FaultSpec.PPM) {
            return ""; // every request or none: the pattern changes nothing
        }
        return switch (f.pattern()) {
            case EVEN -> " evenly";
            case RANDOM -> " at random";
            case BURSTS -> " in bursts of " + trim(f.burstLength()) + " on average";
        };
    }

    /** Whether a random or burst fault covers the host: then its own share of failures is worth printing. */
    private static boolean faultedByDraws(Scenario s, String host) {
        for (FaultSpec f : s.faults()) {
            if (f.pattern() != FaultPattern.EVEN
                    && f.errorRatePpm() > 0
                    && f.errorRatePpm() < FaultSpec.PPM
                    && f.hosts().contains(host)) {
                return true;
            }
        }
        return false;
    }

    private static String healthCheckText(FaultSpec f) {
        return switch (f.healthCheckFailure()) {
            case STATUS -> "an unexpected status: failed at once";
            case TIMEOUT -> "timeouts: count toward unhealthy_threshold";
            case REFUSED -> "refused connections: count toward unhealthy_threshold";
        };
    }
}
