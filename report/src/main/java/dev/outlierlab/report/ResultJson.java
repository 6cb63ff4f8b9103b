package dev.outlierlab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.HostSample;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.sim.HostTally;
import dev.outlierlab.sim.PanicWindow;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.TimeSeries;
import java.util.Locale;

/**
 * The JSON of {@code run --format json} (docs/output-formats.md: {@code scenario}, {@code summary},
 * {@code stats}, {@code events}), each event with the numbers behind it and an {@code explanation} sentence.
 * With charts, also {@code series}, {@code panic_windows} and {@code intervals}. Field order is fixed, so the
 * same result always gives the same bytes.
 */
public final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private ResultJson() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * The result as a JSON tree; {@code signals} is included with charts and whenever the scenario uses the opt-in
     * load keys, so a run without them gives exactly the bytes it always did.
     */
    public static ObjectNode toTree(RunResult r, boolean charts) {
        return toTree(r, charts, charts || r.scenario().load().isShaped());
    }

    /** The result as a JSON tree, with the {@code signals} object when {@code signals} is set. */
    public static ObjectNode toTree(RunResult r, boolean charts, boolean signals) {
        ObjectNode root = JsonDocument.start("run");
        root.set("scenario", MAPPER.valueToTree(ScenarioWriter.toMap(r.scenario())));
        root.set("summary", summaryTree(r));
        RoutingLines.json(r, root);
        ObjectNode stats = root.putObject("stats");
        r.stats().forEach(stats::put);
        ArrayNode events = root.putArray("events");
        for (int i = 0; i < r.events().size(); i++) {
            events.add(event(r.events().get(i), r.clients() > 1 ? r.clientOf(i) : -1));
        }
        if (!r.degradations().isEmpty()) {
            ArrayNode degradations = root.putArray("degradations");
            for (var d : r.degradations()) {
                degradations
                        .addObject()
                        .put("time", d.timeNanos() / 1e9)
                        .put("host", d.host())
                        .put("action", d.jsonName())
                        .put("num_degradations", d.numDegradations())
                        .put("multiplier", d.multiplier())
                        .put("duration", d.durationNanos() / 1e9);
            }
        }
        if (signals && r.signals() != null) {
            root.set("signals", SignalsReport.json(r));
        }
        if (charts) {
            root.set("series", series(r.series()));
            ArrayNode panic = root.putArray("panic_windows");
            for (PanicWindow w : r.panicWindows()) {
                panic.addObject().put("start", w.startNanos() / 1e9).put("end", w.endNanos() / 1e9);
            }
            ArrayNode intervals = root.putArray("intervals");
            for (IntervalEvaluation ie : r.intervals()) {
                intervals.add(interval(ie));
            }
        }
        return root;
    }

    /** The result as indented JSON text ending with a newline. */
    public static String toJson(RunResult r, boolean charts) {
        return write(toTree(r, charts));
    }

    /** As {@link #toJson(RunResult, boolean)}, with the {@code signals} object when {@code signals} is set. */
    public static String toJson(RunResult r, boolean charts, boolean signals) {
        return write(toTree(r, charts, signals));
    }

    /** Any tree of plain values as indented JSON text ending with a newline: the one way output JSON is written. */
    public static String write(JsonNode tree) {
        try {
            return MAPPER.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot happen for a tree of plain values", e);
        }
    }

    /** The {@code summary} object of the run JSON for this result, with the callers' additions when there are several. */
    public static ObjectNode summaryTree(RunResult r) {
        ObjectNode summary = summaryTree(r.summary());
        if (r.clients() > 1) {
            callers(r, summary);
        }
        RoutingLines.summary(r, summary);
        return summary;
    }

    /** The {@code summary} object of the run JSON, without the callers' additions. */
    public static ObjectNode summaryTree(RunSummary s) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("profile", "envoy");
        n.put("requests", s.requests());
        n.put("failed", s.failed());
        n.put("requests_during_fault", s.requestsDuringFault());
        n.put("failed_during_fault", s.failedDuringFault());
        n.put("failed_percent_during_fault", s.failedPercentDuringFault());
        n.put("ejections_detected", s.ejectionsDetected());
        n.put("ejections_enforced", s.ejectionsEnforced());
        n.put("ejections_overflow", s.ejectionsOverflow());
        n.put("panic_seconds", s.panicSeconds());
        n.put("no_healthy_upstream", s.noHealthyUpstream());
        n.put("failed_percent", s.failedPercent());
        n.put("ejections_unenforced", s.ejectionsUnenforced());
        n.put("returns", s.returns());
        n.put("max_ejected_at_once", s.maxEjectedAtOnce());
        n.put("panic_ns", s.panicNanos());
        return n;
    }

    /**
     * The summary's additions with several callers: their number, the caller-time (over all callers) in which a
     * caller had at least one host ejected, and each host's share of caller-time ejected, in percent. The counts
     * of the summary and the stats are over all callers; {@code max_ejected_at_once} is the most of any caller.
     */
    private static void callers(RunResult r, ObjectNode summary) {
        int clients = r.clients();
        long duration = r.scenario().durationNanos();
        summary.put("clients", clients);
        summary.put("ejected_caller_seconds", r.summary().ejectedCallerNanos() / 1e9);
        summary.put("ejected_caller_percent", r.summary().ejectedCallerNanos() * 100.0 / ((double) clients * duration));
        ObjectNode hosts = summary.putObject("host_ejected_caller_percent");
        for (HostTally t : r.hosts()) {
            hosts.put(t.host(), t.ejectedPercentOfCallerTime(clients, duration));
        }
    }

    static ObjectNode event(OutlierEvent e) {
        return event(e, -1);
    }

    /** An event; {@code client} (from 0) is written after the host when it is 0 or more. */
    static ObjectNode event(OutlierEvent e, int client) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("time", e.timeNanos() / 1e9);
        n.put("time_ns", e.timeNanos());
        n.put("host", e.host());
        if (client >= 0) {
            n.put("client", client);
        }
        n.put("action", e.action().jsonName());
        if (e.type() == null) {
            n.putNull("type");
        } else {
            n.put("type", e.type().name());
        }
        if (e.evidence() instanceof SuccessRateEvidence sr) {
            n.put("host_success_rate", sr.hostSuccessRatePercent());
            n.put("cluster_average_success_rate", sr.meanPercent());
            n.put("cluster_success_rate_stdev", sr.stdevPercent());
            n.put("success_rate_stdev_factor", sr.stdevFactor());
            n.put("cluster_success_rate_ejection_threshold", sr.thresholdPercent());
            n.put("host_requests", sr.hostRequests());
            n.put("hosts_evaluated", sr.hostsEvaluated());
        } else if (e.evidence() instanceof FailurePercentageEvidence fp) {
            n.put("host_failure_percentage", fp.hostFailurePercent());
            n.put("failure_percentage_threshold", fp.thresholdPercent());
            n.put("host_requests", fp.hostRequests());
            n.put("hosts_evaluated", fp.hostsEvaluated());
        } else if (e.evidence() instanceof ConsecutiveEvidence c) {
            n.put("consecutive_errors", c.consecutiveErrors());
            n.put("consecutive_threshold", c.threshold());
        }
        if (e.cap() != null) {
            CapCheck cap = e.cap();
            ObjectNode c = n.putObject("cap");
            c.put("ejected_before", cap.ejectedBefore());
            c.put("hosts", cap.hosts());
            c.put("percent_if_ejected", cap.percentIfEjected());
            c.put("max_ejection_percent", cap.maxEjectionPercent());
            c.put("always_eject_one_host", cap.alwaysEjectOneHost());
            c.put("allowed", cap.allowed());
        }
        if (e.enforcement() != null) {
            n.put("enforcing_percent", e.enforcement().enforcingPercent());
            if (e.enforcement().drawMod100() >= 0) {
                n.put("enforcing_draw", e.enforcement().drawMod100());
            }
        }
        if (e.ejection() != null) {
            n.put("ejection_time", e.ejection().durationNanos() / 1e9);
            n.put("ejection_time_ns", e.ejection().durationNanos());
            n.put("multiplier", e.ejection().multiplier());
            n.put("jitter_ns", e.ejection().jitterNanos());
        }
        if (e.uneject() != null) {
            n.put("reason", e.uneject().name().toLowerCase(Locale.ROOT));
            n.put("out_for", e.outForNanos() / 1e9);
            n.put("out_for_ns", e.outForNanos());
        }
        n.put("num_ejections", e.numEjections());
        if (e.alreadyEjected()) {
            n.put("already_ejected", true);
        }
        if (e.orderNote() != null) {
            ObjectNode order = n.putObject("order_note");
            e.orderNote().capContenders().forEach(order.putArray("cap_contenders")::add);
            e.orderNote().borderline().forEach(order.putArray("borderline")::add);
        }
        n.put("explanation", EventExplainer.explain(e));
        return n;
    }

    private static ObjectNode series(TimeSeries s) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("step", s.stepNanos() / 1e9);
        ArrayNode t = n.putArray("time");
        ArrayNode req = n.putArray("requests");
        ArrayNode failed = n.putArray("failed");
        ArrayNode ejected = n.putArray("max_ejected");
        ArrayNode panic = n.putArray("panic_fraction");
        for (int i = 0; i < s.size(); i++) {
            t.add(i * s.stepNanos() / 1e9);
            req.add(s.requests()[i]);
            failed.add(s.failed()[i]);
            ejected.add(s.maxEjected()[i]);
            panic.add(s.panicNanos()[i] / (double) s.stepNanos());
        }
        return n;
    }

    private static ObjectNode interval(IntervalEvaluation ie) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("time", ie.timeNanos() / 1e9);
        n.put("origin", ie.origin().name().toLowerCase(Locale.ROOT));
        n.put("success_rate_ran", ie.successRateRan());
        if (ie.successRateRan()) {
            n.put("mean", ie.meanPercent());
            n.put("stdev", ie.stdevPercent());
            n.put("threshold", ie.thresholdPercent());
        }
        n.put("failure_percentage_ran", ie.failurePercentageRan());
        ArrayNode hosts = n.putArray("hosts");
        for (HostSample h : ie.samples()) {
            hosts.addObject()
                    .put("host", h.host())
                    .put("requests", h.requests())
                    .put("success_rate", h.successRatePercent());
        }
        return n;
    }
}
