package dev.outlierlab.report;

import dev.outlierlab.config.Wording;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text form of a run under the gRPC profile: the inputs with gRPC's settings and where they came from (and
 * what gRPC ignored), the headline figures, and each ejection, refusal and return with its reason
 * ({@link GrpcExplainer}).
 */
public final class GrpcTextReport {
    private GrpcTextReport() {}

    public static String render(RunResult r, GrpcSettings settings, int maxEvents) {
        StringBuilder out = new StringBuilder();
        Scenario s = r.scenario();
        GrpcOutlierConfig c = settings.config();
        RunSummary sum = r.summary();
        out.append("outlier-lab run: ")
                .append(Wording.printable(s.name()))
                .append(" (")
                .append(Numbers.seconds(s.durationNanos()))
                .append(", seed ")
                .append(s.seed())
                .append(", profile grpc, ")
                .append(c.implementation().label())
                .append(")\n\n");
        out.append("Inputs\n");
        line(out, "cluster", s.cluster().size() + " endpoints, no panic (with all ejected, calls fail UNAVAILABLE)");
        // the traffic, faults and load lines as the Envoy report writes them: the same inputs, whatever they grow to
        boolean inputs = false;
        for (String l : TextReport.render(r, 0, null).split("\n")) {
            if (l.equals("Inputs")) {
                inputs = true;
            } else if (l.startsWith("  outlier") || l.isEmpty()) {
                inputs = false;
            } else if (inputs && !l.startsWith("  cluster")) {
                out.append(l).append('\n');
            }
        }
        line(out, "grpc", settings(c, s.cluster().size()));
        line(out, "from", settings.origin());
        for (String note : settings.notes()) {
            line(out, "note", note);
        }
        out.append("\nResults\n");
        line(
                out,
                "detections",
                Numbers.count(sum.ejectionsDetected()) + " (success_rate "
                        + r.stats().getOrDefault("ejections_detected_success_rate", 0L) + ", failure_percentage "
                        + r.stats().getOrDefault("ejections_detected_failure_percentage", 0L) + ")");
        line(out, "ejections", Numbers.count(sum.ejectionsEnforced()));
        line(
                out,
                "cap refused",
                Numbers.count(sum.ejectionsOverflow()) + " (max_ejection_percent " + c.maxEjectionPercent() + ")");
        line(out, "not enforced", Numbers.count(sum.ejectionsUnenforced()));
        line(out, "returns", Numbers.count(sum.returns()));
        line(out, "most out", sum.maxEjectedAtOnce() + " of " + s.cluster().size() + " endpoints ejected at once");
        line(
                out,
                "failed",
                Numbers.count(sum.failed()) + " of " + Numbers.count(sum.requests()) + " calls ("
                        + Numbers.two(sum.failedPercent()) + " %)");
        line(
                out,
                "in fault",
                Numbers.count(sum.failedDuringFault()) + " of " + Numbers.count(sum.requestsDuringFault())
                        + " calls sent during a fault (" + Numbers.two(sum.failedPercentDuringFault()) + " %)");
        if (sum.noHealthyUpstream() > 0) {
            line(out, "unavailable", Numbers.count(sum.noHealthyUpstream()) + " calls found every endpoint ejected");
        }
        out.append("\nDecisions\n");
        List<OutlierEvent> events = r.events();
        if (r.eventCount() == 0) {
            out.append("  none: no endpoint was detected\n");
            return out.toString();
        }
        int hostWidth = Math.max(6, r.eventHostWidth());
        String row = "  %-10s %-" + hostWidth + "s %-10s %-20s %s%n";
        out.append(String.format(Locale.ROOT, row, "time", "host", "action", "algorithm", "why"));
        int shown = Math.min(events.size(), Math.max(0, maxEvents));
        for (OutlierEvent e : events.subList(0, shown)) {
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    Numbers.seconds(e.timeNanos()),
                    Wording.printable(e.host()),
                    e.action().jsonName(),
                    e.type() == null ? "-" : e.type().statSuffix(),
                    GrpcExplainer.reason(e, c)));
        }
        if (shown < r.eventCount()) {
            out.append("  ... ")
                    .append(Numbers.count(r.eventCount() - shown))
                    .append(" more (raise --events, or use --format json for all)\n");
        }
        return out.toString();
    }

    /**
     * The settings in one line, in the service config's snake_case names; a detector that cannot run on {@code hosts}
     * endpoints, because they are fewer than its {@code minimum_hosts}, says so before its fields, e.g. {@code
     * success_rate_ejection off (4 hosts < minimum_hosts 5): {stdev_factor 1900, ...}} ({@link #offForTooFewHosts}).
     */
    public static String settings(GrpcOutlierConfig c, int hosts) {
        Map<String, String> off = offForTooFewHosts(c, hosts);
        StringBuilder b = new StringBuilder();
        b.append("interval ")
                .append(Durations.format(c.intervalNanos()))
                .append(", base_ejection_time ")
                .append(Durations.format(c.baseEjectionTimeNanos()))
                .append(", max_ejection_time ")
                .append(Durations.format(c.maxEjectionTimeNanos()))
                .append(", max_ejection_percent ")
                .append(c.maxEjectionPercent());
        SuccessRateEjection sr = c.successRate();
        b.append("; success_rate_ejection ")
                .append(
                        sr == null
                                ? "off"
                                : offPrefix(off, SUCCESS_RATE) + "{stdev_factor " + sr.stdevFactor()
                                        + ", enforcement_percentage " + sr.enforcementPercentage() + ", minimum_hosts "
                                        + sr.minimumHosts() + ", request_volume " + sr.requestVolume() + "}");
        FailurePercentageEjection fp = c.failurePercentage();
        b.append("; failure_percentage_ejection ")
                .append(
                        fp == null
                                ? "off"
                                : offPrefix(off, FAILURE_PERCENTAGE) + "{threshold " + fp.threshold()
                                        + ", enforcement_percentage " + fp.enforcementPercentage() + ", minimum_hosts "
                                        + fp.minimumHosts() + ", request_volume " + fp.requestVolume() + "}");
        return b.toString();
    }

    static final String SUCCESS_RATE = "success_rate_ejection";
    static final String FAILURE_PERCENTAGE = "failure_percentage_ejection";

    /**
     * The detectors that are set but cannot run on {@code hosts} endpoints, each with why, e.g. {@code
     * success_rate_ejection -> (4 hosts < minimum_hosts 5)}: grpc-java's {@code ejectOutliers} of each algorithm
     * returns when fewer than {@code minimum_hosts} addresses have the request volume (gRFC A50), which fewer endpoints
     * never reach. The words are tune's label's ({@link Setting#tooFew(int, String, long)}).
     */
    public static Map<String, String> offForTooFewHosts(GrpcOutlierConfig c, int hosts) {
        Map<String, String> off = new LinkedHashMap<>();
        if (c.successRate() != null && hosts < c.successRate().minimumHosts()) {
            off.put(
                    SUCCESS_RATE,
                    Setting.tooFew(hosts, "minimum_hosts", c.successRate().minimumHosts()));
        }
        if (c.failurePercentage() != null && hosts < c.failurePercentage().minimumHosts()) {
            off.put(
                    FAILURE_PERCENTAGE,
                    Setting.tooFew(hosts, "minimum_hosts", c.failurePercentage().minimumHosts()));
        }
        return off;
    }

    private static String offPrefix(Map<String, String> off, String detector) {
        String why = off.get(detector);
        return why == null ? "" : "off " + why + ": ";
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", label, text));
    }
}
