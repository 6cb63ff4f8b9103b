package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.hinges.IntervalVolume;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "Why not" section of an Envoy run report: for each detector that never ejected, the reason from the run's
 * numbers, in the order Envoy's {@code DetectorImpl} checks them: the enforcing percentage
 * ({@code enforcing_*}), the interval detectors' request volume and minimum hosts
 * ({@code processSuccessRateEjections}, {@code processFailurePercentageEjections}), the cap
 * ({@code ejectHost}), and for the consecutive detectors the longest run of failures the faults make
 * ({@code onConsecutive5xx}, {@code onConsecutiveGatewayFailure}). The gateway profile's counterpart is
 * {@link GatewayExplainer}.
 */
public final class WhyNot {
    private WhyNot() {}

    /** One detector's reason. */
    public record Line(EjectionType type, String text) {}

    /** The section with a blank line before it, or an empty string when every detector ejected. */
    public static String render(RunResult r, boolean replayed) {
        List<Line> lines = lines(r, replayed);
        if (lines.isEmpty()) {
            return "";
        }
        int width = lines.stream()
                .mapToInt(l -> l.type().statSuffix().length())
                .max()
                .orElse(0);
        StringBuilder out = new StringBuilder("\nWhy not\n");
        for (Line l : lines) {
            out.append(String.format(
                    Locale.ROOT, "  %-" + width + "s  %s%n", l.type().statSuffix(), l.text()));
        }
        return out.toString();
    }

    /** A line for each detector of the run that ejected no host. */
    public static List<Line> lines(RunResult r, boolean replayed) {
        Scenario s = r.scenario();
        OutlierDetectionConfig c = s.outlierDetection();
        List<EjectionType> types = new ArrayList<>(List.of(
                EjectionType.CONSECUTIVE_5XX,
                EjectionType.CONSECUTIVE_GATEWAY_FAILURE,
                EjectionType.SUCCESS_RATE,
                EjectionType.FAILURE_PERCENTAGE));
        if (c.splitExternalLocalOriginErrors()) {
            types.addAll(List.of(
                    EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                    EjectionType.SUCCESS_RATE_LOCAL_ORIGIN,
                    EjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN));
        }
        List<Line> lines = new ArrayList<>();
        for (EjectionType t : types) {
            if (stat(r, "ejections_enforced_", t) == 0) {
                lines.add(new Line(t, reason(r, t, replayed)));
            }
        }
        return lines;
    }

    private static String reason(RunResult r, EjectionType t, boolean replayed) {
        OutlierDetectionConfig c = r.scenario().outlierDetection();
        long detected = stat(r, "ejections_detected_", t);
        long enforcing = c.enforcingPercent(t);
        String times = "detected " + Numbers.count(detected) + (detected == 1 ? " time" : " times");
        String zero = switch (t) {
            case CONSECUTIVE_5XX -> c.consecutive5xx() == 0 ? "consecutive_5xx" : null;
            case CONSECUTIVE_GATEWAY_FAILURE ->
                c.consecutiveGatewayFailure() == 0 ? "consecutive_gateway_failure" : null;
            case CONSECUTIVE_LOCAL_ORIGIN_FAILURE ->
                c.consecutiveLocalOriginFailure() == 0 ? "consecutive_local_origin_failure" : null;
            default -> null;
        };
        if (zero != null) {
            // Envoy's host monitor compares the count after the increment (1 or more) with the threshold: 0 is never
            // met
            return zero + " 0: the detector is off (a count of failures in a row is never 0), it neither detects nor "
                    + "ejects";
        }
        if (enforcing == 0) {
            return t.enforcingSetting().envoyName() + " 0 %"
                    + (c.isExplicit(t.enforcingSetting()) ? "" : " (Envoy's default)") + ": it detects, never ejects"
                    + (detected > 0 ? "; " + times : "");
        }
        IntervalVolume volume = replayed ? null : volume(r.scenario(), t);
        if (volume != null && volume.verdict().never()) {
            return volume.verdict() == IntervalVolume.Verdict.NEVER_TOO_FEW_HOSTS
                    ? "never runs: " + volume.hosts() + " hosts, fewer than " + volume.settingPrefix()
                            + "_minimum_hosts " + volume.minimumHosts()
                    : "never runs: about " + HingesText.amount(volume.perHost()) + " requests per host per "
                            + Numbers.seconds(c.intervalNanos()) + " interval"
                            + (r.clients() > 1 ? " from each caller" : "")
                            + ", below " + volume.settingPrefix() + "_request_volume " + volume.requestVolume();
        }
        CapCheck refused = firstRefusal(r, t);
        if (refused != null) {
            return times + ", refused by the cap: " + EventExplainer.cap(refused);
        }
        if (detected > 0) {
            return times + ", none enforced (" + t.enforcingSetting().envoyName() + " " + enforcing + " %)";
        }
        return switch (t) {
            case SUCCESS_RATE, SUCCESS_RATE_LOCAL_ORIGIN ->
                "no host's success rate fell below mean - "
                        + (c.successRateStdevFactor() / 1000.0) + " x stdev in any interval"
                        + (volume != null && volume.verdict() == IntervalVolume.Verdict.ONLY_WITH_FEWER_HOSTS
                                ? " (it runs only while ejections leave fewer hosts in rotation)"
                                : "");
            case FAILURE_PERCENTAGE, FAILURE_PERCENTAGE_LOCAL_ORIGIN ->
                "no host failed failure_percentage_threshold " + c.failurePercentageThreshold()
                        + " % or more of its requests in an interval";
            case CONSECUTIVE_5XX -> consecutive(r, c.consecutive5xx(), replayed, "consecutive_5xx", "5xx");
            case CONSECUTIVE_GATEWAY_FAILURE ->
                "no host had consecutive_gateway_failure " + c.consecutiveGatewayFailure()
                        + " gateway failures (502, 503, 504) in a row";
            case CONSECUTIVE_LOCAL_ORIGIN_FAILURE ->
                "no host had consecutive_local_origin_failure " + c.consecutiveLocalOriginFailure()
                        + " local-origin failures in a row";
        };
    }

    private static String consecutive(RunResult r, long threshold, boolean replayed, String setting, String what) {
        long run = replayed ? -1 : ConsecutiveRun.longest(r.scenario());
        if (run == 0) {
            return "no fault fails with a " + what + ", so no run of failures starts (" + setting + " " + threshold
                    + ")";
        }
        if (run > 0 && run < threshold) {
            return "the faults spread their failures evenly: at most " + run + " " + what + " in a row, below "
                    + setting + " " + threshold;
        }
        return "no host had " + setting + " " + threshold + " " + what + " in a row"
                + (run < 0
                        ? " (the longest run is not known here: "
                                + (replayed
                                        ? "replayed traffic"
                                        : "faults at random or in bursts, overlapping faults or several callers")
                                + ")"
                        : "");
    }

    private static IntervalVolume volume(Scenario s, EjectionType t) {
        EjectionType external = switch (t) {
            case SUCCESS_RATE, SUCCESS_RATE_LOCAL_ORIGIN -> EjectionType.SUCCESS_RATE;
            case FAILURE_PERCENTAGE, FAILURE_PERCENTAGE_LOCAL_ORIGIN -> EjectionType.FAILURE_PERCENTAGE;
            default -> null;
        };
        for (IntervalVolume v : IntervalVolume.of(s)) {
            if (v.type() == external) {
                return v;
            }
        }
        return null;
    }

    private static CapCheck firstRefusal(RunResult r, EjectionType t) {
        for (OutlierEvent e : r.events()) {
            if (e.action() == EventAction.OVERFLOW && e.type() == t && e.cap() != null) {
                return e.cap();
            }
        }
        return null;
    }

    private static long stat(RunResult r, String prefix, EjectionType t) {
        return r.stats().getOrDefault(prefix + t.statSuffix(), 0L);
    }
}
