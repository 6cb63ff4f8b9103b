package dev.outlierlab.report;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySummary;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text form of a gateway run: the inputs, the headline numbers (requests and attempts, what the caller
 * saw fail, the share of attempts per endpoint, time ejected), every decision with its numbers, and the
 * non-decisions ("why nothing was ejected") with theirs.
 */
public final class GatewayTextReport {
    private GatewayTextReport() {}

    public static String render(GatewayRunResult r, int maxEvents) {
        GatewayScenario s = r.scenario();
        GatewayConfig c = s.gateway();
        GatewaySummary sum = r.summary();
        StringBuilder out = new StringBuilder();
        out.append("outlier-lab run: ")
                .append(s.name())
                .append(" (profile gateway, ")
                .append(Numbers.seconds(s.durationNanos()))
                .append(", seed ")
                .append(s.seed())
                .append(")\n\n");
        out.append(RunVerdict.ofGateway(r).render());
        out.append("Inputs\n");
        line(
                out,
                "endpoints",
                s.endpoints().size() + " (" + String.join(", ", abbreviate(s.endpoints())) + "), in routing order");
        RoutingConfig routing = s.routing();
        line(
                out,
                "traffic",
                Numbers.count(s.traffic().rps()) + " requests/s, "
                        + routing.strategy().configName()
                        + (routing.weights().isEmpty() ? "" : " " + routing.weights()) + ", fallbacks "
                        + routing.fallbacks()
                        + ", " + c.processes() + (c.processes() == 1 ? " process" : " processes"));
        if (s.faults().isEmpty()) {
            line(out, "faults", "none");
        }
        for (int i = 0; i < s.faults().size(); i++) {
            FaultSpec f = s.faults().get(i);
            line(
                    out,
                    i == 0 ? "faults" : "",
                    String.join(", ", abbreviate(f.hosts())) + ": "
                            + GatewayExplainer.trim(f.errorRatePercent()) + " % fail" + TextReport.patternText(f)
                            + " with "
                            + (f.result() != null ? f.result().traceName() : f.status()) + " from "
                            + Numbers.seconds(f.startNanos()) + " to " + Numbers.seconds(f.endNanos()));
        }
        line(
                out,
                "gateway",
                "mode " + c.mode().configName() + ", window " + Numbers.seconds(c.windowNanos())
                        + " of " + Numbers.seconds(c.bucketNanos()) + " buckets, min_requests " + c.minRequests()
                        + ", stdev_factor " + GatewayExplainer.trim(c.stdevFactor()) + ", peer_set "
                        + c.peerSet().configName()
                        + ", min_stdev " + GatewayExplainer.trim(c.minStdevPercent()) + ", consecutive_failures "
                        + c.consecutiveFailures() + ", ejection_time " + Numbers.seconds(c.ejectionTimeNanos()));
        out.append("\nResults\n");
        line(
                out,
                "failed",
                Numbers.count(sum.failedRequests()) + " of " + Numbers.count(sum.requests())
                        + " requests as the caller saw them; " + Numbers.count(sum.failedAttempts()) + " of "
                        + Numbers.count(sum.attempts()) + " attempts");
        line(
                out,
                "in fault",
                Numbers.count(sum.failedRequestsDuringFault()) + " of "
                        + Numbers.count(sum.requestsDuringFault()) + " requests sent during a fault ("
                        + Numbers.two(sum.failedPercentDuringFault()) + " %)");
        String verb = c.mode() == StageMode.SHADOW ? "would-ejections" : "ejections";
        line(
                out,
                verb,
                Numbers.count(sum.ejections()) + " (consecutive " + Numbers.count(sum.consecutiveEjections())
                        + ", success_rate " + Numbers.count(sum.successRateEjections()) + "), returns "
                        + Numbers.count(sum.returns()));
        line(
                out,
                "stages",
                "eject " + Numbers.count(sum.ejectStages()) + ", kept_all " + Numbers.count(sum.keptAllStages())
                        + ", would_eject " + Numbers.count(sum.wouldEjectStages()));
        for (int e = 0; e < s.endpoints().size(); e++) {
            long attempts = sum.attemptsPerEndpoint().get(e);
            List<String> out1 = new ArrayList<>();
            for (List<Long> process : sum.ejectedNanos()) {
                out1.add(Numbers.one(process.get(e) / 1e9));
            }
            line(
                    out,
                    e == 0 ? "endpoints" : "",
                    String.format(
                            Locale.ROOT,
                            "%s: %s attempts (%s %%), ejected %s s",
                            s.endpoints().get(e),
                            Numbers.count(attempts),
                            Numbers.one(sum.attempts() == 0 ? 0 : attempts * 100.0 / sum.attempts()),
                            String.join(" / ", out1) + (c.processes() > 1 ? " (per process)" : "")));
        }
        out.append("\nDecisions\n");
        List<GatewayEvent> events = r.events();
        if (events.isEmpty()) {
            out.append("  none: no endpoint was ejected")
                    .append(c.mode() == StageMode.SHADOW ? " (even virtually)" : "")
                    .append('\n');
        }
        int shown = Math.min(events.size(), Math.max(0, maxEvents));
        for (GatewayEvent e : events.subList(0, shown)) {
            out.append("  ").append(GatewayExplainer.explain(e, c)).append('\n');
        }
        if (shown < events.size()) {
            out.append("  ... ")
                    .append(Numbers.count(events.size() - shown))
                    .append(" more (raise --events, or use --format json for all)\n");
        }
        List<String> notes = GatewayExplainer.nonDecisions(r);
        if (!notes.isEmpty()) {
            out.append("\nWhy not\n");
            notes.forEach(n -> out.append("  - ").append(n).append('\n'));
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String label, String text) {
        out.append(String.format(Locale.ROOT, "  %-13s %s%n", label, text));
    }

    private static List<String> abbreviate(List<String> names) {
        return names.size() <= 6 ? names : List.of(names.get(0), names.get(1), "...", names.get(names.size() - 1));
    }
}
