package dev.outlierlab.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.istio.IstioRouting;
import dev.outlierlab.config.istio.IstioRuleEdit;
import dev.outlierlab.config.istio.TranslatedField;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code POST /api/istio}: the lab's Istio mode. Takes a DestinationRule's text, which of its clusters (a
 * {@link IstioPolicy#displayName()}, by default the first) and optionally that cluster's {@code outlierDetection}
 * fields as the user edited them; answers with the rule's clusters, the chosen one's Istio fields, istiod's
 * translation field by field, the Envoy settings the lab runs with (only those istiod sets: every other one keeps
 * Envoy's default, as in the mesh, so an unset {@code maxEjectionTime} follows Envoy's {@code max(300 s, base)}
 * rule) with the panic threshold ({@code minHealthPercent}), and, after an edit, the changed rule: the same file
 * with only that block replaced ({@link IstioRuleEdit}).
 */
final class IstioLab {
    private static final ObjectMapper MAPPER = ResultJson.mapper();
    private static final String SOURCE = "the DestinationRule";

    private IstioLab() {}

    static byte[] answer(String body) {
        JsonNode req;
        try {
            req = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("malformed JSON: " + e.getOriginalMessage());
        }
        if (req == null || !req.isObject() || !req.path("rule").isTextual()) {
            throw ApiException.badRequest(
                    "expected {\"rule\": the DestinationRule's YAML, \"cluster\": NAME (optional),"
                            + " \"fields\": {Istio's outlierDetection fields} (optional)}");
        }
        String text = req.get("rule").asText();
        IstioConfig config = DestinationRuleReader.read(text, SOURCE, null, null);
        IstioPolicy policy = chosen(
                config, req.path("cluster").isTextual() ? req.get("cluster").asText() : null);
        String changed = null;
        if (req.path("fields").isObject()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            req.get("fields")
                    .fields()
                    .forEachRemaining(e -> fields.put(e.getKey(), MAPPER.convertValue(e.getValue(), Object.class)));
            changed = IstioRuleEdit.replaced(text, SOURCE, policy, fields);
            policy = chosen(DestinationRuleReader.read(changed, SOURCE, null, null), policy.displayName());
        }
        ObjectNode out = MAPPER.createObjectNode();
        ArrayNode clusters = out.putArray("clusters");
        config.policies().forEach(p -> clusters.add(p.displayName()));
        out.put("cluster", policy.displayName());
        out.put("host", policy.host());
        out.put("scope", policy.scope() + ".outlierDetection");
        out.set("fields", MAPPER.valueToTree(IstioRuleEdit.fields(changed == null ? text : changed, SOURCE, policy)));
        ArrayNode translation = out.putArray("translation");
        for (TranslatedField f : policy.fields()) {
            translation
                    .addObject()
                    .put("envoy", f.envoyField())
                    .put("value", f.value())
                    .put("from", f.from());
        }
        ObjectNode od = out.putObject("outlier_detection");
        OutlierDetectionConfig c = policy.outlierDetection();
        if (c != null) {
            for (OutlierSetting s : OutlierSetting.values()) {
                if (c.isExplicit(s)) {
                    od.set(s.envoyName(), MAPPER.valueToTree(ScenarioWriter.settingValue(s, c.get(s))));
                }
            }
        }
        out.put("panic_threshold", policy.panicThresholdPercent());
        out.set("routing", routing(policy.routing()));
        if (changed != null) {
            out.put("rule", changed);
        }
        return LabApi.write(out);
    }

    /**
     * What istiod's routing adds to the scenario ({@link IstioRouting}): the cluster's
     * {@code lb_policy}, the routes' retries ({@code traffic.retries}: "istio" for istiod's default, "none" when a
     * VirtualService turns them off), whether locality failover applies (the page sets it with the zones it is
     * given), and what the rule sets that the lab reads past.
     */
    private static ObjectNode routing(RoutingSpec r) {
        ObjectNode out = MAPPER.createObjectNode();
        out.put("lb_policy", r.lbPolicy().scenarioName());
        Object retries = ScenarioWriter.retriesValue(r.retries());
        out.set("retries", MAPPER.valueToTree(retries == null ? "none" : retries));
        out.put("retries_text", r.retries() == null ? "none" : r.retries().describe());
        out.put("locality_failover", r.localityFailover());
        ArrayNode notes = out.putArray("not_modelled");
        r.notModelled().forEach(notes::add);
        return out;
    }

    private static IstioPolicy chosen(IstioConfig config, String name) {
        if (config.policies().isEmpty()) {
            throw ApiException.badRequest("the text has no DestinationRule"
                    + (config.otherKinds().isEmpty() ? "" : " (found " + String.join(", ", config.otherKinds()) + ")"));
        }
        if (name == null) {
            return config.policies().get(0);
        }
        for (IstioPolicy p : config.policies()) {
            if (p.displayName().equals(name)) {
                return p;
            }
        }
        throw ApiException.badRequest("no cluster " + name + " in the DestinationRule; it has "
                + String.join(
                        ", ",
                        config.policies().stream().map(IstioPolicy::displayName).toList()));
    }
}
