package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RateStep;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.Flapping;
import dev.outlierlab.sim.signals.RequestOutcomes;
import dev.outlierlab.sim.signals.SignalSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The operators' signals of a run (seed 003) in three forms: the {@code signals} object of the JSON result,
 * the CSV of {@code run --series FILE.csv} (one row per second), and the text report's "Signals" section with
 * the requests by outcome, which mechanism returned each host, and any flapping.
 */
public final class SignalsReport {
    /** The CSV header of {@code run --series}. */
    public static final String CSV_HEADER = "time,membership_total,membership_healthy,health_check_healthy,"
            + "ejections_active,ejections_enforced,requests,failed,panic";

    private SignalsReport() {}

    /** The {@code signals} object of the JSON result. */
    public static ObjectNode json(RunResult r) {
        SignalSeries s = r.signals();
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("step", s.stepNanos() / 1e9);
        n.put("membership_total", s.membershipTotal());
        RequestOutcomes o = s.outcomes();
        n.putObject("requests_by_outcome")
                .put("sent", o.sent())
                .put("ok", o.ok())
                .put("failed_capacity", o.failedCapacity())
                .put("failed_fault", o.failedFault())
                .put("failed_no_host", o.failedNoHost());
        n.putObject("returns")
                .put("ejection_time_elapsed", s.returnsByTime())
                .put("active_health_check", s.returnsByHealthCheck());
        ArrayNode flapping = n.putArray("flapping");
        for (Flapping.Episode e : s.flapping()) {
            flapping.addObject()
                    .put("host", e.host())
                    .put("ejections", e.ejections())
                    .put("first", e.firstNanos() / 1e9)
                    .put("last", e.lastNanos() / 1e9)
                    .put("per_minute", Math.round(e.perMinute() * 100) / 100.0)
                    .put("returns_by_health_check", e.returnsByHealthCheck())
                    .put("returns_by_time", e.returnsByTime())
                    .put("health_check_healthy_flat", e.healthChecksFlat());
        }
        ArrayNode time = n.putArray("time");
        ArrayNode active = n.putArray("ejections_active");
        ArrayNode healthy = n.putArray("membership_healthy");
        ArrayNode hcHealthy = n.putArray("health_check_healthy");
        ArrayNode enforced = n.putArray("ejections_enforced");
        ArrayNode requests = n.putArray("requests");
        ArrayNode failed = n.putArray("failed");
        ArrayNode panic = n.putArray("panic");
        for (int b = 0; b < s.size(); b++) {
            time.add(b * s.stepNanos() / 1e9);
            active.add(s.ejectionsActive()[b]);
            healthy.add(s.membershipHealthy()[b]);
            hcHealthy.add(s.healthCheckHealthy()[b]);
            enforced.add(s.ejectionsEnforced()[b]);
            requests.add(s.requests()[b]);
            failed.add(s.failed()[b]);
            panic.add(s.panic()[b]);
        }
        return n;
    }

    /** One CSV row per step, the time being the step's start in seconds. */
    public static String csv(RunResult r) {
        SignalSeries s = r.signals();
        StringBuilder out = new StringBuilder(CSV_HEADER).append('\n');
        for (int b = 0; b < s.size(); b++) {
            out.append(Numbers.seconds(b * s.stepNanos()).replace(" s", ""))
                    .append(',')
                    .append(s.membershipTotal())
                    .append(',')
                    .append(s.membershipHealthy()[b])
                    .append(',')
                    .append(s.healthCheckHealthy()[b])
                    .append(',')
                    .append(s.ejectionsActive()[b])
                    .append(',')
                    .append(s.ejectionsEnforced()[b])
                    .append(',')
                    .append(s.requests()[b])
                    .append(',')
                    .append(s.failed()[b])
                    .append(',')
                    .append(s.panic()[b])
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * Whether the text report shows the "Signals" section: when the run used the opt-in load keys, or a host
     * came back by a health check, or something flapped (a run without these prints exactly as before).
     */
    public static boolean worthShowing(RunResult r) {
        return r.signals() != null
                && (r.scenario().load().isShaped()
                        || r.signals().returnsByHealthCheck() > 0
                        || r.signals().outcomes().failedCapacity() > 0
                        || !r.signals().flapping().isEmpty());
    }

    /** The text report's "Signals" section. */
    public static String text(RunResult r) {
        SignalSeries s = r.signals();
        RequestOutcomes o = s.outcomes();
        StringBuilder out = new StringBuilder(
                "\nSignals (per second, as a dashboard scrapes them; run --series FILE.csv for all)\n");
        line(
                out,
                "requests",
                Numbers.count(o.sent()) + " sent: " + Numbers.count(o.ok()) + " served, "
                        + Numbers.count(o.failedCapacity()) + " failed for capacity, " + Numbers.count(o.failedFault())
                        + " failed by a fault, " + Numbers.count(o.failedNoHost()) + " found no host");
        line(
                out,
                "returned by",
                Numbers.count(s.returnsByTime()) + " after the ejection time, "
                        + Numbers.count(s.returnsByHealthCheck()) + " by a passing active health check");
        int maxActive = 0;
        int atMax = 0;
        int minHealthy = Integer.MAX_VALUE;
        int atMin = 0;
        int panicSteps = 0;
        long peakEnforced = 0;
        for (int b = 0; b < s.size(); b++) {
            if (s.ejectionsActive()[b] > maxActive) {
                maxActive = s.ejectionsActive()[b];
                atMax = b;
            }
            if (s.membershipHealthy()[b] < minHealthy) {
                minHealthy = s.membershipHealthy()[b];
                atMin = b;
            }
            panicSteps += s.panic()[b];
            peakEnforced = Math.max(peakEnforced, s.ejectionsEnforced()[b]);
        }
        long step = s.stepNanos();
        line(
                out,
                "ejections",
                "ejections_active at most " + maxActive
                        + (maxActive > 0 ? " (first at " + Numbers.seconds(atMax * step) + ")" : "")
                        + "; ejections_enforced_total rose by at most "
                        + peakEnforced + " in one second");
        line(
                out,
                "membership",
                "membership_healthy lowest " + minHealthy + " of " + s.membershipTotal()
                        + (minHealthy < s.membershipTotal() ? " (first at " + Numbers.seconds(atMin * step) + ")" : "")
                        + "; panic at " + panicSteps + " of " + s.size() + " samples");
        List<Flapping.Episode> episodes = s.flapping();
        if (episodes.isEmpty()) {
            line(
                    out,
                    "flapping",
                    "none (no host ejected " + Flapping.MIN_EJECTIONS
                            + " times in a row, each less than 30 s after the one before)");
        }
        for (int i = 0; i < episodes.size(); i++) {
            Flapping.Episode e = episodes.get(i);
            String how = e.returnsByHealthCheck() > 0 && e.returnsByTime() == 0
                    ? "each time returned by a passing active health check"
                    : e.returnsByHealthCheck() == 0
                            ? "each time returned after its ejection time"
                            : e.returnsByHealthCheck() + " times returned by a health check, " + e.returnsByTime()
                                    + " by time";
            String flat = e.healthChecksFlat()
                    ? "health_check_healthy stayed at " + e.healthCheckHealthyMin() + " of " + s.membershipTotal()
                    : "health_check_healthy moved between " + e.healthCheckHealthyMin() + " and "
                            + e.healthCheckHealthyMax();
            line(
                    out,
                    i == 0 ? "flapping" : "",
                    e.host() + ": ejected " + e.ejections() + " times from "
                            + Numbers.seconds(e.firstNanos()) + " to " + Numbers.seconds(e.lastNanos()) + " ("
                            + String.format(Locale.ROOT, "%.1f", e.perMinute()) + " per minute), " + how + "; " + flat
                            + " while membership_healthy dipped to " + e.membershipHealthyMin()
                            + " (Envoy counts an ejected host unhealthy)");
        }
        return out.toString();
    }

    /** The opt-in load keys of a scenario in one line of the report's inputs. */
    static String loadText(Scenario s) {
        LoadSpec load = s.load();
        List<String> parts = new ArrayList<>();
        if (load.hasCapacity()) {
            Set<Long> distinct = new TreeSet<>(load.capacityRps().values());
            parts.add("capacity "
                    + (distinct.size() == 1
                                    && load.capacityRps().size() == s.cluster().size()
                            ? Numbers.count(distinct.iterator().next()) + " requests/s per host"
                            : "by host " + new TreeMap<>(load.capacityRps()))
                    + " over a sliding second, beyond it "
                    + (load.overloadResult() != null ? "a timeout" : "HTTP " + load.overloadStatus()));
        }
        if (!load.weights().isEmpty()) {
            parts.add("weights " + new TreeMap<>(load.weights()) + " (Envoy's weighted round robin, others 1)");
        }
        if (load.arrivals() != Arrivals.EVEN) {
            parts.add(load.arrivals().fileName() + " arrivals (seeded)");
        }
        for (RateStep step : load.steps()) {
            parts.add(Numbers.count(step.rps()) + " requests/s from " + Numbers.seconds(step.atNanos()));
        }
        return String.join("; ", parts);
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", label, text));
    }
}
