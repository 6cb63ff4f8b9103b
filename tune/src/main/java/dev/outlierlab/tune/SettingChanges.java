package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import java.util.ArrayList;
import java.util.List;

/**
 * What the recommendation changes from the current settings, as one clause of the explanation: each changed field in
 * words with what it does (the hosts a new cap admits, the detector a field turns on or off), in the target's own words
 * when it has them ({@link Target#changes(Setting, Setting, TuneRequest)}).
 */
final class SettingChanges {
    private SettingChanges() {}

    /** The changed fields in words, e.g. "raises max_ejection_percent from 10 to 17, which admits 1 of 6 hosts". */
    static String words(Setting a, Setting b, TuneRequest req) {
        List<String> own = req.target().changes(a, b, req);
        if (own != null) {
            return joined(own);
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
        return joined(out);
    }

    /** Changes joined as one clause: "a, b and c". */
    private static String joined(List<String> out) {
        if (out.isEmpty()) {
            return "keeps the same settings, written in the target's own format";
        }
        if (out.size() == 1) {
            return out.get(0);
        }
        return String.join(", ", out.subList(0, out.size() - 1)) + " and " + out.get(out.size() - 1);
    }
}
