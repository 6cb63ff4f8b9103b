package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.istio.TranslatedField;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code check --format json}: the clusters as read (effective settings, panic threshold, hosts, and for a
 * DestinationRule every translated field with its source) and the findings with their ids, severities,
 * numbers and fixes. Field order is fixed.
 */
public final class FindingsJson {
    private FindingsJson() {}

    public static ObjectNode toTree(CheckReport report) {
        ObjectNode root = JsonDocument.start("check");
        ArrayNode files = root.putArray("files");
        for (CheckReport.CheckedFile f : report.files()) {
            ObjectNode n = files.addObject().put("path", f.path()).put("read", f.notRead() == null);
            if (f.notRead() != null) {
                if (f.line() > 0) { // a directory has no lines
                    n.put("line", f.line());
                }
                n.put("reason", f.notRead());
            }
        }
        root.put("hosts", report.hosts());
        root.put("rps", report.rps());
        if (report.clients() > 1) {
            root.put("clients", report.clients());
        }
        ObjectNode summary = root.putObject("summary");
        summary.put("errors", report.count(Severity.ERROR));
        summary.put("warnings", report.count(Severity.WARNING));
        summary.put("notes", report.count(Severity.NOTE));
        ArrayNode clusters = root.putArray("clusters");
        for (CheckTarget t : report.targets()) {
            ObjectNode c = clusters.addObject();
            c.put("name", t.name());
            c.put("line", t.line());
            c.put("hosts", t.hosts());
            if (t.hostsAtLeast()) {
                c.put("hosts_at_least", true);
            }
            c.put("healthy_panic_threshold", t.panicThresholdPercent());
            if (t.gateway() != null) {
                c.put("profile", "gateway");
                c.set("gateway", gateway(t));
            } else if (t.config() == null) {
                c.putNull("outlier_detection");
            } else {
                c.set("outlier_detection", ResultJson.mapper().valueToTree(settings(t)));
            }
            if (!t.translation().isEmpty()) {
                ArrayNode tr = c.putArray("translation");
                for (TranslatedField f : t.translation()) {
                    tr.addObject()
                            .put("envoy_field", f.envoyField())
                            .put("value", f.value())
                            .put("from", f.from());
                }
            }
        }
        ArrayNode findings = root.putArray("findings");
        for (Finding f : report.findings()) {
            ObjectNode n = findings.addObject();
            n.put("id", f.rule().id());
            n.put("severity", f.severity().level());
            n.put("cluster", f.target().isEmpty() ? null : f.target());
            if (!f.alsoAppliesTo().isEmpty()) {
                ArrayNode also = n.putArray("also_applies_to");
                f.alsoAppliesTo().forEach(also::add);
            }
            n.put("title", f.rule().title());
            n.put("message", f.message());
            n.set("numbers", ResultJson.mapper().valueToTree(f.numbers()));
            n.put("fix", f.fix());
            n.put("file", f.file());
            n.put("line", f.line());
        }
        return root;
    }

    private static Map<String, Object> settings(CheckTarget t) {
        Map<String, Object> m = new LinkedHashMap<>();
        t.config().asMap().forEach((s, v) -> m.put(s.envoyName(), ScenarioWriter.settingValue(s, v)));
        return m;
    }

    public static String toJson(CheckReport report) {
        return ResultJson.write(toTree(report));
    }

    /** The gateway and routing settings checked, defaults applied, in the file's keys. */
    private static ObjectNode gateway(CheckTarget t) {
        GatewayConfig g = t.gateway().gateway();
        RoutingConfig r = t.gateway().routing();
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("mode", g.mode().configName());
        n.put("window_seconds", Durations.toSeconds(g.windowNanos()));
        n.put("bucket_seconds", Durations.toSeconds(g.bucketNanos()));
        n.put("min_requests", g.minRequests());
        n.put("stdev_factor", g.stdevFactor());
        n.put("peer_set", g.peerSet().configName());
        n.put("min_stdev", g.minStdevPercent());
        n.put("consecutive_failures", g.consecutiveFailures());
        n.put("ejection_time_seconds", Durations.toSeconds(g.ejectionTimeNanos()));
        n.put("processes", g.processes());
        ObjectNode routing = n.putObject("routing");
        routing.put("strategy", r.strategy().configName());
        ArrayNode weights = routing.putArray("weights");
        r.weights().forEach(weights::add);
        routing.put("fallbacks", r.fallbacks());
        return n;
    }
}
