package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.engine.gateway.ConsecutiveTrip;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.SuccessRateJudgement;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.engine.stage.StageRecord;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewaySummary;
import java.util.List;

/**
 * The JSON of {@code run --format json} for {@code profile: gateway} (docs/output-formats.md):
 * {@code scenario} with every default, {@code summary}, {@code events} with their numbers and an
 * {@code explanation}, and {@code notes} explaining non-decisions. Also the one-line JSON of a stage record
 * for {@code --stages FILE}. Field order is fixed, so the same result always gives the same bytes.
 */
public final class GatewayResultJson {
    private GatewayResultJson() {}

    public static ObjectNode toTree(GatewayRunResult r) {
        ObjectNode root = JsonDocument.start("run");
        root.set("scenario", ResultJson.mapper().valueToTree(GatewayScenarioWriter.toMap(r.scenario())));
        root.set("summary", summary(r));
        ArrayNode events = root.putArray("events");
        for (GatewayEvent e : r.events()) {
            events.add(event(e, r.scenario().gateway()));
        }
        ArrayNode notes = root.putArray("notes");
        GatewayExplainer.nonDecisions(r).forEach(notes::add);
        return root;
    }

    public static String toJson(GatewayRunResult r) {
        return ResultJson.write(toTree(r));
    }

    /** The {@code summary} object of the gateway run JSON. */
    public static ObjectNode summary(GatewayRunResult r) {
        GatewaySummary s = r.summary();
        List<String> endpoints = r.scenario().endpoints();
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("profile", "gateway");
        n.put("mode", r.scenario().gateway().mode().configName());
        n.put("requests", s.requests());
        n.put("attempts", s.attempts());
        n.put("failed_requests", s.failedRequests());
        n.put("failed_attempts", s.failedAttempts());
        n.put("requests_during_fault", s.requestsDuringFault());
        n.put("failed_requests_during_fault", s.failedRequestsDuringFault());
        n.put("failed_percent_during_fault", s.failedPercentDuringFault());
        // The keys every profile's summary has, under the names of the Envoy summary (docs/reference.md).
        n.put("failed", s.failedRequests());
        n.put("failed_during_fault", s.failedRequestsDuringFault());
        n.put("failed_percent", s.requests() == 0 ? 0.0 : s.failedRequests() * 100.0 / s.requests());
        n.put("ejections_enforced", r.scenario().gateway().mode() == StageMode.PROD ? s.ejections() : 0);
        ObjectNode per = n.putObject("endpoints");
        for (int e = 0; e < endpoints.size(); e++) {
            ObjectNode en = per.putObject(endpoints.get(e));
            long a = s.attemptsPerEndpoint().get(e);
            en.put("attempts", a);
            en.put("attempt_share_percent", s.attempts() == 0 ? 0 : a * 100.0 / s.attempts());
            ArrayNode ejected = en.putArray("ejected_seconds_per_process");
            for (List<Long> process : s.ejectedNanos()) {
                ejected.add(process.get(e) / 1e9);
            }
        }
        ObjectNode ej = n.putObject("ejections");
        ej.put("consecutive", s.consecutiveEjections());
        ej.put("success_rate", s.successRateEjections());
        n.put("returns", s.returns());
        n.put("eject_stages", s.ejectStages());
        n.put("kept_all_stages", s.keptAllStages());
        n.put("would_eject_stages", s.wouldEjectStages());
        n.put("judgements_below_min_stdev", s.judgementsBelowMinStdev());
        return n;
    }

    static ObjectNode event(GatewayEvent e, GatewayConfig config) {
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("time", e.timeNanos() / 1e9);
        n.put("time_ns", e.timeNanos());
        n.put("process", e.process());
        n.put("endpoint", e.endpointName());
        n.put("action", e.action().outputName());
        if (e.reason() == null) {
            n.putNull("reason");
        } else {
            n.put("reason", e.reason().outputName());
        }
        if (e.evidence() instanceof SuccessRateJudgement j) {
            n.put("rate", j.ratePercent());
            n.put("attempts", j.attempts());
            n.put("failures", j.failures());
            n.put("mean", j.meanPercent());
            n.put("stdev", j.stdevPercent());
            n.put("stdev_factor", config.stdevFactor());
            n.put("threshold", j.thresholdPercent());
            n.put("scored", j.scored());
            n.put("peers", j.peers());
        } else if (e.evidence() instanceof ConsecutiveTrip t) {
            n.put("consecutive", t.consecutive());
            n.put("consecutive_failures", t.threshold());
        }
        if (e.outForNanos() > 0) {
            n.put("out_for", e.outForNanos() / 1e9);
            n.put("out_for_ns", e.outForNanos());
        } else {
            n.put("return_at", e.returnAtNanos() / 1e9);
            n.put("return_at_ns", e.returnAtNanos());
        }
        n.put("explanation", GatewayExplainer.explain(e, config));
        return n;
    }

    /** One stage record as one line of JSON (no newline): time, request, process, mode, action, endpoints. */
    public static String stageLine(StageRecord s, List<String> endpoints) {
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("time", s.timeNanos() / 1e9);
        n.put("time_ns", s.timeNanos());
        n.put("request", s.request());
        n.put("process", s.process());
        n.put("mode", s.mode().configName());
        n.put("action", s.action().outputName());
        ArrayNode names = n.putArray("endpoints");
        s.endpoints().forEach(e -> names.add(endpoints.get(e)));
        return n.toString();
    }
}
