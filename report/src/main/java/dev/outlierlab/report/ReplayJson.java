package dev.outlierlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.sim.HostTraffic;
import dev.outlierlab.sim.ReplayResult;
import java.util.List;
import java.util.Map;

/**
 * A replay's JSON for one detector, in two objects that never mix: {@code recorded}, what the log says happened
 * (requests and failures, per host), and {@code predicted}, what the lab's detector with the given settings would
 * have done over the same requests (its summary of decisions, Envoy's stats, the events, and per host the time out,
 * the requests moved to other hosts and the failures among them, at most avoided).
 */
public final class ReplayJson {
    /** The run summary's keys that are decisions of the detector, not the log's figures. */
    private static final List<String> PREDICTED_KEYS = List.of(
            "ejections_detected",
            "ejections_enforced",
            "ejections_overflow",
            "ejections_unenforced",
            "returns",
            "max_ejected_at_once",
            "panic_seconds",
            "panic_ns",
            "no_healthy_upstream");

    private ReplayJson() {}

    /** What the log recorded: its requests and failures, in all and per host. */
    public static ObjectNode recorded(ReplayResult r) {
        ObjectNode n = ResultJson.mapper().createObjectNode();
        long requests = 0;
        long failed = 0;
        for (HostTraffic h : r.hosts()) {
            requests += h.requests();
            failed += h.failed();
        }
        n.put("requests", requests);
        n.put("failed", failed);
        n.put("failed_percent", percent(failed, requests));
        ArrayNode hosts = n.putArray("hosts");
        for (HostTraffic h : r.hosts()) {
            hosts.addObject()
                    .put("host", h.host())
                    .put("requests", h.requests())
                    .put("failed", h.failed())
                    .put("failed_percent", percent(h.failed(), h.requests()));
        }
        return n;
    }

    /** What the settings predict over the log's requests. */
    public static ObjectNode predicted(ReplayResult r) {
        ObjectNode run = ResultJson.toTree(r.run(), false);
        ObjectNode n = ResultJson.mapper().createObjectNode();
        ObjectNode settings = run.get("scenario").deepCopy();
        // a replay's traffic and failures are the log's: the scenario's traffic, faults and seed are not used
        settings.remove(List.of("traffic", "faults", "seed"));
        n.set("settings", settings);
        ObjectNode summary = n.putObject("summary");
        JsonNode all = run.get("summary");
        for (String key : PREDICTED_KEYS) {
            summary.set(key, all.get(key));
        }
        long ejectedNanos =
                r.hosts().stream().mapToLong(HostTraffic::ejectedNanos).sum();
        long failed = r.hosts().stream().mapToLong(HostTraffic::failed).sum();
        summary.put("ejected_seconds", ejectedNanos / 1e9);
        summary.put("requests_moved", r.requestsWhileEjected());
        summary.put("failures_avoided_at_most", r.failedWhileEjected());
        summary.put("failures_left_at_least", failed - r.failedWhileEjected());
        n.set("stats", run.get("stats"));
        n.set("events", run.get("events"));
        Map<String, Long> ejections = ReplayHostsText.ejections(r);
        ArrayNode hosts = n.putArray("hosts");
        for (HostTraffic h : r.hosts()) {
            hosts.addObject()
                    .put("host", h.host())
                    .put("ejections", ejections.getOrDefault(h.host(), 0L))
                    .put("ejected_seconds", h.ejectedNanos() / 1e9)
                    .put("requests_moved", h.requestsWhileEjected())
                    .put("failures_avoided_at_most", h.failedWhileEjected());
        }
        return n;
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : part * 100.0 / whole;
    }
}
