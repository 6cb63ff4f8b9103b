package dev.outlierlab.report;

import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.hinges.IntervalVolume;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one or two lines under a run report's title: what happened and, when something kept detection from
 * ejecting, the setting that would change it, all computed from the run's numbers. The cap arithmetic follows
 * Envoy's {@code DetectorImpl::ejectHost} (from 1.28: eject while {@code (ejected + 1) / hosts} is at most
 * {@code max_ejection_percent}); the panic line follows {@code LoadBalancerBase::isHostSetInPanic} (panic while
 * the healthy share is below {@code healthy_panic_threshold}); the volume lines follow
 * {@code DetectorImpl::processSuccessRateEjections} through {@link IntervalVolume}.
 *
 * @param what what the run shows, one sentence
 * @param fix  the change that unblocks detection, or null when nothing blocks it
 */
public record RunVerdict(String what, String fix) {

    /** The verdict of a run; {@code replayed} when the traffic came from a trace (its faults are not known). */
    public static RunVerdict of(RunResult r, boolean replayed) {
        Scenario s = r.scenario();
        RunSummary sum = r.summary();
        OutlierDetectionConfig c = s.outlierDetection();
        int hosts = s.cluster().size();
        long cap = c.maxEjectionPercent();
        String callers = r.clients() > 1 ? " per caller" : "";
        if (sum.ejectionsEnforced() == 0 && sum.ejectionsOverflow() > 0) {
            CapCheck first = firstOverflow(r);
            int n = first == null ? hosts : first.hosts();
            return new RunVerdict(Numbers.count(sum.ejectionsDetected()) + detections(sum.ejectionsDetected())
                    + " but no ejection: max_ejection_percent " + cap + " admits no host of " + n + callers
                    + " ((0+1)/" + n + " = " + Numbers.one(100.0 / n) + " % > " + cap + " %)",
                    "max_ejection_percent " + smallestAdmittingOne(n, first == null ? CapRule.ACTIVE_PLUS_ONE
                            : first.rule()) + " (the smallest that admits one host of " + n + "), or"
                            + " always_eject_one_host true");
        }
        int keep = mostOutAbovePanic(hosts, s.cluster().panicThresholdPercent());
        if (sum.ejectionsEnforced() > 0 && sum.panicSeconds() > 0 && sum.maxEjectedAtOnce() > keep) {
            String what = Numbers.count(sum.ejectionsEnforced()) + ejections(sum.ejectionsEnforced())
                    + ", up to " + sum.maxEjectedAtOnce() + " of " + hosts + " hosts out at once under max_ejection_percent "
                    + cap + ": the cluster was in panic for " + Numbers.one(sum.panicSeconds()) + " s (below the panic"
                    + " threshold " + trim(s.cluster().panicThresholdPercent()) + " % healthy, Envoy sends to every host,"
                    + " ejected ones too)";
            String fix = keep == 0 ? null : "max_ejection_percent " + capFor(keep, hosts) + " (at most " + keep + " of "
                    + hosts + " hosts out, " + Numbers.one(100.0 * (hosts - keep) / hosts) + " % left in rotation)";
            return new RunVerdict(what, fix);
        }
        if (sum.ejectionsEnforced() > 0) {
            OutlierEvent e = firstEjection(r);
            String first = e == null ? "" : " (first: " + Wording.printable(e.host()) + " at " + Numbers.seconds(e.timeNanos())
                    + " by " + e.type().statSuffix() + ")";
            String refused = sum.ejectionsOverflow() > 0 ? "; the cap refused " + Numbers.count(sum.ejectionsOverflow())
                    + " more (max_ejection_percent " + cap + ")" : "";
            return new RunVerdict(Numbers.count(sum.ejectionsEnforced()) + ejections(sum.ejectionsEnforced()) + first
                    + refused + ", up to " + sum.maxEjectedAtOnce() + " of " + hosts + " hosts out at once", null);
        }
        if (sum.ejectionsDetected() > 0) {
            List<String> settings = new ArrayList<>();
            List<String> fixes = new ArrayList<>();
            for (EjectionType t : EjectionType.values()) {
                if (r.stats().getOrDefault("ejections_detected_" + t.statSuffix(), 0L) > 0) {
                    settings.add(t.enforcingSetting().envoyName() + " " + c.enforcingPercent(t) + " %");
                    fixes.add(t.enforcingSetting().envoyName() + " 100");
                }
            }
            return new RunVerdict(Numbers.count(sum.ejectionsDetected()) + detections(sum.ejectionsDetected())
                    + ", none enforced: " + String.join(", ", settings), "set " + String.join(" and ", fixes)
                    + " to eject what is detected");
        }
        if (!replayed && !s.faults().isEmpty() && s.faults().stream().allMatch(f -> f.degraded() || f.errorRatePpm() == 0)) {
            long marks = r.degradations().stream().filter(d -> d.degraded()).count();
            return new RunVerdict("no ejection: the faults only answer with x-envoy-degraded, which "
                    + (s.outlierDetection().detectDegradedHosts() ? "marked a host degraded " + Numbers.count(marks)
                            + (marks == 1 ? " time" : " times") + " (not an ejection)"
                            : "only detect_degraded_hosts reads (Envoy 1.38)"), null);
        }
        return nothingDetected(r, replayed);
    }

    private static RunVerdict nothingDetected(RunResult r, boolean replayed) {
        Scenario s = r.scenario();
        if (!replayed && s.faults().stream().allMatch(f -> f.errorRatePpm() == 0)) {
            return new RunVerdict("no fault and no detection: nothing to eject", null);
        }
        List<String> why = new ArrayList<>();
        String fix = null;
        for (IntervalVolume v : replayed ? List.<IntervalVolume>of() : IntervalVolume.of(s)) {
            if (v.enforcingPercent() == 0) {
                continue;
            }
            if (v.verdict() == IntervalVolume.Verdict.NEVER_TOO_FEW_HOSTS) {
                why.add(v.settingPrefix() + " never runs (" + v.hosts() + " hosts < " + v.settingPrefix()
                        + "_minimum_hosts " + v.minimumHosts() + ")");
                fix = fix != null ? fix : v.settingPrefix() + "_minimum_hosts " + v.hosts();
            } else if (v.verdict() == IntervalVolume.Verdict.NEVER_TOO_LITTLE_TRAFFIC) {
                why.add(v.settingPrefix() + " never runs (about " + HingesText.amount(v.perHost()) + " requests per host"
                        + " per interval < " + v.settingPrefix() + "_request_volume " + v.requestVolume() + ")");
                long volume = (long) Math.floor(v.perHost());
                if (fix == null && volume >= 1) {
                    fix = v.settingPrefix() + "_request_volume " + volume + " (what each host gets per interval)";
                }
            }
        }
        long run = replayed ? -1 : ConsecutiveRun.longest(s);
        long threshold = s.outlierDetection().consecutive5xx();
        if (run >= 0 && run < threshold) {
            why.add("the failures come at most " + run + " in a row, below consecutive_5xx " + threshold);
            if (fix == null && run >= 1) {
                fix = "consecutive_5xx " + run + " (the longest run the faults make; it then ejects on " + run
                        + " failure" + (run == 1 ? "" : "s") + " in a row)";
            }
        }
        String what = "nothing detected" + (why.isEmpty() ? "" : ": " + String.join("; ", why));
        return new RunVerdict(what, fix);
    }

    /**
     * The verdict of a gateway run: its ejections, or the first reason {@link GatewayExplainer#nonDecisions} gives
     * for none (those reasons are computed from the run's numbers, as the Envoy ones are).
     */
    public static RunVerdict ofGateway(dev.outlierlab.sim.gateway.GatewayRunResult r) {
        var sum = r.summary();
        boolean shadow = r.scenario().gateway().mode() == dev.outlierlab.engine.stage.StageMode.SHADOW;
        String failed = "; " + Numbers.count(sum.failedRequests()) + " of " + Numbers.count(sum.requests())
                + " requests failed as the caller saw them";
        if (sum.ejections() > 0) {
            return new RunVerdict(Numbers.count(sum.ejections()) + (shadow ? " would-ejections" : ejections(sum.ejections()))
                    + " (consecutive " + Numbers.count(sum.consecutiveEjections()) + ", success_rate "
                    + Numbers.count(sum.successRateEjections()) + ")" + failed, null);
        }
        List<String> notes = GatewayExplainer.nonDecisions(r);
        return new RunVerdict("no endpoint ejected" + (shadow ? ", even virtually" : "") + failed
                + (notes.isEmpty() ? "" : "; see Why not below"), null);
    }

    /** The two lines, labelled like the report's other lines, with a blank line after them. */
    public String render() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", "verdict", what));
        if (fix != null) {
            out.append(String.format(Locale.ROOT, "  %-13s %s%n", "fix", fix));
        }
        return out.append('\n').toString();
    }

    /** The smallest whole {@code max_ejection_percent} that lets the first host of {@code hosts} out. */
    static long smallestAdmittingOne(int hosts, CapRule rule) {
        return rule == CapRule.ACTIVE_BELOW_MAX ? 1 : capFor(1, hosts);
    }

    /** The smallest whole percentage that admits {@code k} of {@code hosts}: {@code ceil(100 k / hosts)}. */
    static long capFor(int k, int hosts) {
        return (100L * k + hosts - 1) / hosts;
    }

    /** The most hosts out at once that keep the healthy share at or above the panic threshold. */
    static int mostOutAbovePanic(int hosts, double panicPercent) {
        int k = 0;
        while (k < hosts && 100.0 * (hosts - k - 1) / hosts >= panicPercent) {
            k++;
        }
        return k;
    }

    private static CapCheck firstOverflow(RunResult r) {
        for (OutlierEvent e : r.events()) {
            if (e.action() == EventAction.OVERFLOW && e.cap() != null) {
                return e.cap();
            }
        }
        return null;
    }

    private static OutlierEvent firstEjection(RunResult r) {
        for (OutlierEvent e : r.events()) {
            if (e.action() == EventAction.EJECT) {
                return e;
            }
        }
        return null;
    }

    private static String detections(long n) {
        return n == 1 ? " detection" : " detections";
    }

    private static String ejections(long n) {
        return n == 1 ? " ejection" : " ejections";
    }

    private static String trim(double d) {
        return Numbers.one(d).replace(".0", "");
    }
}
