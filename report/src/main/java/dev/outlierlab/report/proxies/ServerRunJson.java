package dev.outlierlab.report.proxies;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.report.JsonDocument;
import dev.outlierlab.report.ResultJson;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a {@link ServerRun}: {@code profile}, {@code scenario} (the scenario file's keys, the profile's block
 * included), {@code summary} (requests, client errors, ejections and the profile's own totals), {@code servers} and
 * every event ({@code time}, {@code time_ns}, {@code action} eject or uneject, {@code host}, {@code reason} and its
 * figures); {@code not_modelled}, what a configuration file sets that the run leaves out, when it sets any.
 * Deterministic: the same run gives the same bytes.
 */
public final class ServerRunJson {
    private ServerRunJson() {}

    /** The whole document, with what the run's configuration file sets that it leaves out. */
    public static String toJson(ServerRun r, Map<String, Object> scenario, List<String> notModelled) {
        ObjectNode root = toTree(r, scenario);
        if (!notModelled.isEmpty()) {
            ArrayNode notes = root.putArray("not_modelled");
            notModelled.forEach(notes::add);
        }
        return ResultJson.write(root);
    }

    /** The whole document as a tree. */
    public static ObjectNode toTree(ServerRun r, Map<String, Object> scenario) {
        ObjectNode root = JsonDocument.start("run");
        root.put("profile", r.profile());
        root.set("scenario", ResultJson.mapper().valueToTree(scenario));
        root.set("summary", summary(r));
        ArrayNode servers = root.putArray("servers");
        for (int i = 0; i < r.servers().size(); i++) {
            ObjectNode s = servers.addObject();
            s.put("host", r.servers().get(i));
            s.put("attempts", r.attempts()[i]);
            s.put("ejections", r.ejections()[i]);
        }
        ArrayNode events = root.putArray("events");
        for (ServerRun.Event e : r.events()) {
            ObjectNode o = events.addObject();
            o.put("time", Durations.format(e.timeNanos()));
            o.put("time_ns", e.timeNanos());
            o.put("action", e.action());
            o.put("host", e.server());
            o.put("reason", e.reason());
            e.figures().forEach(o::put);
        }
        return root;
    }

    /** The run's figures, as {@code summary} and as one row of a sweep's JSON. */
    public static ObjectNode summary(ServerRun r) {
        ObjectNode s = ResultJson.mapper().createObjectNode();
        s.put("profile", r.profile());
        s.put("requests", r.requests());
        s.put("client_errors", r.clientErrors());
        s.put("client_error_percent", Math.round(r.clientErrorPercent() * 100) / 100.0);
        s.put("none_left", r.noneLeftCount());
        s.put("ejections", r.totalEjections());
        r.counters().forEach((k, v) -> s.put(k.replace(' ', '_').replace("-", "_"), v));
        return s;
    }
}
