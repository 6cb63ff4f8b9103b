package dev.outlierlab.report;

import dev.outlierlab.engine.gateway.ConsecutiveTrip;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.gateway.SuccessRateJudgement;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySummary;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Sentences for the gateway profile: each decision with the numbers behind it, and the non-decisions users
 * ask about (why nothing was ejected): Samuelson's bound on the 2σ rule with few endpoints, a hard trip that
 * an evenly spread fault can never reach, ordered routing that starves the other endpoints, too little
 * traffic to reach {@code min_requests}, a spread below {@code min_stdev}, and mode off.
 */
public final class GatewayExplainer {
    private GatewayExplainer() {}

    /** One decision: who, what and why, with its numbers. */
    public static String explain(GatewayEvent e, GatewayConfig config) {
        String who = Numbers.seconds(e.timeNanos()) + ": " + e.endpointName() + " (process " + e.process() + ")";
        if (e.action() == GatewayAction.RETURN) {
            return who + " back in rotation after " + Numbers.seconds(e.outForNanos()) + " out (first look at or after "
                    + Numbers.seconds(e.returnAtNanos()) + "), with an empty window and a count of 0";
        }
        String outcome = e.action() == GatewayAction.WOULD_EJECT
                ? " -> would be ejected until " + Numbers.seconds(e.returnAtNanos()) + " (shadow: nothing removed)"
                : " -> ejected until " + Numbers.seconds(e.returnAtNanos()) + " ("
                        + Numbers.seconds(config.ejectionTimeNanos()) + ", no probe)";
        return who + " " + reason(e, config) + outcome;
    }

    /** Why an ejection happened, without the time and endpoint. */
    public static String reason(GatewayEvent e, GatewayConfig config) {
        if (e.evidence() instanceof ConsecutiveTrip t) {
            return t.consecutive() + " failures in a row (consecutive_failures " + t.threshold() + ")";
        }
        if (e.evidence() instanceof SuccessRateJudgement j) {
            boolean close = pct(j.ratePercent()).equals(pct(j.thresholdPercent()));
            boolean tie = Math.abs(j.ratePercent() - j.thresholdPercent()) < 1e-9;
            String rate = close ? j.ratePercent() + " %" : pct(j.ratePercent());
            String threshold = close ? j.thresholdPercent() + " %" : pct(j.thresholdPercent());
            if (tie) {
                threshold += " (equal in real numbers: a tie that rounding decided)";
            }
            return "succeeded " + rate + " (" + Numbers.count(j.attempts() - j.failures()) + " of "
                    + Numbers.count(j.attempts()) + ") < threshold " + threshold + " = mean "
                    + pct(j.meanPercent()) + " - " + trim(config.stdevFactor()) + " x stdev " + points(j.stdevPercent())
                    + " (" + j.scored() + " scored, peers " + config.peerSet().configName() + ": " + j.peers() + ")";
        }
        return "";
    }

    /** The non-decisions worth explaining for this run, each with its numbers. */
    public static List<String> nonDecisions(GatewayRunResult r) {
        GatewayScenario s = r.scenario();
        GatewayConfig c = s.gateway();
        GatewaySummary sum = r.summary();
        List<String> notes = new ArrayList<>();
        int n = s.endpoints().size();
        if (c.mode() == StageMode.OFF) {
            notes.add("mode off: the stage is not consulted and outcomes are not recorded; every endpoint stays in "
                    + "the pool however it compares, and no stage is recorded.");
            return notes;
        }
        samuelson(n, c).ifPresent(notes::add);
        hardTripUnreachable(s, sum).ifPresent(notes::add);
        if (s.routing().strategy() == RoutingStrategy.ORDERED && n > 1) {
            List<String> shares = new ArrayList<>();
            for (int e = 0; e < n; e++) {
                shares.add(s.endpoints().get(e) + " "
                        + Numbers.count(sum.attemptsPerEndpoint().get(e)));
            }
            notes.add("routing ordered: every request goes to " + s.endpoints().get(0) + " while it is in rotation; "
                    + "the others get only fallbacks and the traffic of ejections, so they are rarely scored and the "
                    + "first endpoint has no peers to be compared with (attempts: " + String.join(", ", shares) + ").");
        }
        double perWindow = s.traffic().rps() * (c.windowNanos() / 1e9) / c.processes() / n;
        if (n > 1 && perWindow < c.minRequests()) {
            notes.add(String.format(
                    Locale.ROOT,
                    "traffic: at %s requests/s over %d endpoints and %d processes, each "
                            + "endpoint gets about %.1f attempts per %s window in a process, fewer than min_requests %d: it is "
                            + "rarely or never scored.",
                    Numbers.count(s.traffic().rps()),
                    n,
                    c.processes(),
                    perWindow,
                    Numbers.seconds(c.windowNanos()),
                    c.minRequests()));
        }
        if (sum.judgementsBelowMinStdev() > 0) {
            notes.add(Numbers.count(sum.judgementsBelowMinStdev()) + " judgements found a rate below mean - "
                    + trim(c.stdevFactor()) + " x stdev, but the spread was below min_stdev "
                    + trim(c.minStdevPercent())
                    + " percentage points, so nothing was ejected: a spread that small is not meaningful (one failure more than "
                    + "the others in a pool that fails evenly).");
        }
        return notes;
    }

    private static Optional<String> samuelson(int n, GatewayConfig c) {
        if (n == 1) {
            return Optional.of("one endpoint: there are no peers, so the statistical rule never runs; only "
                    + "the hard trip ejects, and the guard keeps the endpoint in every candidate list, so the skill "
                    + "does nothing until there are two.");
        }
        if (c.peerSet() != PeerSet.ALL) {
            return Optional.empty();
        }
        double bound = Math.sqrt(n - 1);
        String head = String.format(
                Locale.ROOT,
                "%d endpoints, peer_set all: no endpoint can lie more than sqrt(%d) = "
                        + "%.3f standard deviations below the mean of the %d (Samuelson's inequality)",
                n,
                n - 1,
                bound,
                n);
        if (c.stdevFactor() > bound) {
            return Optional.of(head + ", and stdev_factor is " + trim(c.stdevFactor()) + ": the statistical "
                    + "rule can never fire, so only the hard trip ejects.");
        }
        if (c.stdevFactor() == bound) {
            return Optional.of(head + ", exactly stdev_factor " + trim(c.stdevFactor()) + ": the rule fires "
                    + "only when the others are exactly equal, and then the comparison is an exact tie that "
                    + "floating-point rounding decides.");
        }
        return Optional.empty();
    }

    private static Optional<String> hardTripUnreachable(GatewayScenario s, GatewaySummary sum) {
        int trip = s.gateway().consecutiveFailures();
        if (trip == 0) {
            return Optional.of("consecutive_failures 0: the hard trip is off.");
        }
        if (s.faults().isEmpty() || sum.consecutiveEjections() > 0) {
            return Optional.empty();
        }
        long longest = 0;
        for (FaultSpec f : s.faults()) {
            longest = Math.max(longest, f.longestFailureRun());
        }
        if (longest >= trip) {
            return Optional.empty();
        }
        return Optional.of("hard trip: the faults fail evenly, at most " + longest + " in a row, fewer than "
                + "consecutive_failures " + trip + ", so the hard trip never fires.");
    }

    static String pct(double percent) {
        return Numbers.two(percent) + " %";
    }

    static String points(double points) {
        return Numbers.two(points);
    }

    static String trim(double d) {
        String s = String.format(Locale.ROOT, "%.4f", d);
        return s.replaceAll("\\.?0+$", "");
    }
}
