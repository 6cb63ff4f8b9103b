package dev.outlierlab.report;

import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.check.FixStyle.Change;
import dev.outlierlab.check.TooFewHostsFix;
import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.gateway.GatewayRunResult;
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
 * @param what  what the run shows, one sentence
 * @param fix   the change that unblocks detection in Envoy's field names, or null when nothing blocks it
 * @param fixes the same change as alternatives of Envoy fields, for saying it in the input's own fields
 *              ({@link FixStyle#phrase}); empty when there is no fix
 */
public record RunVerdict(String what, String fix, List<List<Change>> fixes) {
    private static final String OD = "outlier_detection.";
    private static final String MAX_EJECTION_PERCENT = OD + "max_ejection_percent";
    private static final String ALWAYS_EJECT_ONE_HOST = OD + "always_eject_one_host";

    public RunVerdict {
        fixes = fixes.stream().map(List::copyOf).toList();
    }

    /** A verdict whose fix, if any, is only said in Envoy's terms. */
    public RunVerdict(String what, String fix) {
        this(what, fix, List.of());
    }

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
            long smallest = smallestAdmittingOne(n, first == null ? CapRule.ACTIVE_PLUS_ONE : first.rule());
            String why = "the smallest that admits one host of " + n;
            return new RunVerdict(
                    Numbers.count(sum.ejectionsDetected()) + detections(sum.ejectionsDetected())
                            + " but no ejection: max_ejection_percent " + cap + " admits no host of " + n + callers
                            + " ((0+1)/" + n + " = " + Numbers.one(100.0 / n) + " % > " + cap + " %)",
                    "max_ejection_percent " + smallest + " (" + why + "), or always_eject_one_host true",
                    List.of(
                            List.of(new Change(MAX_EJECTION_PERCENT, smallest, why)),
                            List.of(new Change(ALWAYS_EJECT_ONE_HOST, true))));
        }
        int keep = mostOutAbovePanic(hosts, s.cluster().panicThresholdPercent());
        if (sum.ejectionsEnforced() > 0 && sum.panicSeconds() > 0 && sum.maxEjectedAtOnce() > keep) {
            String what = Numbers.count(sum.ejectionsEnforced()) + ejections(sum.ejectionsEnforced())
                    + ", up to " + sum.maxEjectedAtOnce() + " of " + hosts
                    + " hosts out at once under max_ejection_percent "
                    + cap + ": the cluster was in panic for " + Numbers.one(sum.panicSeconds()) + " s (below the panic"
                    + " threshold " + trim(s.cluster().panicThresholdPercent())
                    + " % healthy, Envoy sends to every host,"
                    + " ejected ones too)";
            String why = "at most " + keep + " of " + hosts + " hosts out, "
                    + Numbers.one(100.0 * (hosts - keep) / hosts) + " % left in rotation";
            if (keep == 0) {
                return new RunVerdict(what, null);
            }
            return new RunVerdict(
                    what,
                    "max_ejection_percent " + capFor(keep, hosts) + " (" + why + ")",
                    List.of(List.of(new Change(MAX_EJECTION_PERCENT, capFor(keep, hosts), why))));
        }
        if (sum.ejectionsEnforced() > 0) {
            OutlierEvent e = firstEjection(r);
            String first = e == null
                    ? ""
                    : " (first: " + Wording.printable(e.host()) + " at " + Numbers.seconds(e.timeNanos()) + " by "
                            + e.type().statSuffix() + ")";
            String refused = sum.ejectionsOverflow() > 0
                    ? "; the cap refused " + Numbers.count(sum.ejectionsOverflow()) + " more (max_ejection_percent "
                            + cap + ")"
                    : "";
            return new RunVerdict(
                    Numbers.count(sum.ejectionsEnforced()) + ejections(sum.ejectionsEnforced()) + first + refused
                            + ", up to " + sum.maxEjectedAtOnce() + " of " + hosts + " hosts out at once",
                    null);
        }
        if (sum.ejectionsDetected() > 0) {
            List<String> settings = new ArrayList<>();
            List<String> fixes = new ArrayList<>();
            List<Change> changes = new ArrayList<>();
            for (EjectionType t : EjectionType.values()) {
                if (r.stats().getOrDefault("ejections_detected_" + t.statSuffix(), 0L) > 0) {
                    settings.add(t.enforcingSetting().envoyName() + " " + c.enforcingPercent(t) + " %");
                    fixes.add(t.enforcingSetting().envoyName() + " 100");
                    changes.add(new Change(OD + t.enforcingSetting().envoyName(), 100));
                }
            }
            return new RunVerdict(
                    Numbers.count(sum.ejectionsDetected()) + detections(sum.ejectionsDetected()) + ", none enforced: "
                            + String.join(", ", settings),
                    "set " + String.join(" and ", fixes) + " to eject what is detected",
                    List.of(changes));
        }
        if (!replayed
                && !s.faults().isEmpty()
                && s.faults().stream().allMatch(f -> f.degraded() || f.errorRatePpm() == 0)) {
            long marks = r.degradations().stream().filter(d -> d.degraded()).count();
            return new RunVerdict(
                    "no ejection: the faults only answer with x-envoy-degraded, which "
                            + (s.outlierDetection().detectDegradedHosts()
                                    ? "marked a host degraded " + Numbers.count(marks)
                                            + (marks == 1 ? " time" : " times") + " (not an ejection)"
                                    : "only detect_degraded_hosts reads (Envoy 1.38)"),
                    null);
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
        Change change = null;
        List<Change> changes = null;
        for (IntervalVolume v : replayed ? List.<IntervalVolume>of() : IntervalVolume.of(s)) {
            if (v.enforcingPercent() == 0) {
                continue;
            }
            if (v.verdict() == IntervalVolume.Verdict.NEVER_TOO_FEW_HOSTS) {
                why.add(v.settingPrefix() + " never runs (" + v.hosts() + " hosts < " + v.settingPrefix()
                        + "_minimum_hosts " + v.minimumHosts() + ")");
                if (fix == null) {
                    // check's fix for the same cluster (TooFewHostsFix decides for both)
                    changes = TooFewHostsFix.of(s.outlierDetection(), v.hosts(), v.type());
                    fix = said(changes);
                }
            } else if (v.verdict() == IntervalVolume.Verdict.NEVER_TOO_LITTLE_TRAFFIC) {
                why.add(v.settingPrefix() + " never runs (about " + HingesText.amount(v.perHost())
                        + " requests per host" + " per interval < " + v.settingPrefix() + "_request_volume "
                        + v.requestVolume() + ")");
                long volume = (long) Math.floor(v.perHost());
                if (fix == null && volume >= 1) {
                    fix = v.settingPrefix() + "_request_volume " + volume + " (what each host gets per interval)";
                    change = new Change(
                            OD + v.settingPrefix() + "_request_volume", volume, "what each host gets per interval");
                }
            }
        }
        long run = replayed ? -1 : ConsecutiveRun.longest(s);
        long threshold = s.outlierDetection().consecutive5xx();
        if (run >= 0 && run < threshold) {
            why.add("the failures come at most " + run + " in a row, below consecutive_5xx " + threshold
                    + " (the faults spread them evenly; faults[0].pattern=random or bursts fails in runs)");
            if (fix == null && run >= 1) {
                String because = "the longest run the faults make; it then ejects on " + run + " failure"
                        + (run == 1 ? "" : "s") + " in a row";
                fix = "consecutive_5xx " + run + " (" + because + ")";
                change = new Change(OD + "consecutive_5xx", run, because);
            }
        }
        String what = "nothing detected" + (why.isEmpty() ? "" : ": " + String.join("; ", why));
        return new RunVerdict(
                what, fix, changes != null ? List.of(changes) : change == null ? List.of() : List.of(List.of(change)));
    }

    /** Changes as a fix line: {@code a 100 and b 4 (the first one's reason)}. */
    private static String said(List<Change> changes) {
        List<String> parts = new ArrayList<>();
        changes.forEach(c -> parts.add(c.envoyPath().substring(OD.length()) + " " + c.value()));
        String because = changes.get(0).comment();
        return String.join(" and ", parts) + (because == null ? "" : " (" + because + ")");
    }

    /**
     * The verdict of a gateway run: its ejections, or the first reason {@link GatewayExplainer#nonDecisions} gives
     * for none (those reasons are computed from the run's numbers, as the Envoy ones are).
     */
    public static RunVerdict ofGateway(GatewayRunResult r) {
        var sum = r.summary();
        boolean shadow = r.scenario().gateway().mode() == StageMode.SHADOW;
        String failed = "; " + Numbers.count(sum.failedRequests()) + " of " + Numbers.count(sum.requests())
                + " requests failed as the caller saw them";
        if (sum.ejections() > 0) {
            return new RunVerdict(
                    Numbers.count(sum.ejections()) + (shadow ? " would-ejections" : ejections(sum.ejections()))
                            + " (consecutive " + Numbers.count(sum.consecutiveEjections()) + ", success_rate "
                            + Numbers.count(sum.successRateEjections()) + ")" + failed,
                    null);
        }
        List<String> notes = GatewayExplainer.nonDecisions(r);
        return new RunVerdict(
                "no endpoint ejected" + (shadow ? ", even virtually" : "") + failed
                        + (notes.isEmpty() ? "" : "; see Why not below"),
                null);
    }

    /** The two lines, labelled like the report's other lines, with a blank line after them. */
    public String render() {
        return render(FixAdvice.ENVOY, null);
    }

    /**
     * The lines with the fix said in the input's own fields ({@link FixAdvice}): for a DestinationRule its
     * {@code trafficPolicy.outlierDetection} paths, what no field of it can set, and the patch that can.
     */
    public String render(FixAdvice advice, OutlierDetectionConfig current) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", "verdict", advice.say(what)));
        if (fix != null && (advice.untranslated() || fixes.isEmpty())) {
            out.append(String.format(Locale.ROOT, "  %-13s %s%n", "fix", advice.say(fix)));
        } else if (fix != null) {
            out.append(advice.lines(fixes, current));
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
