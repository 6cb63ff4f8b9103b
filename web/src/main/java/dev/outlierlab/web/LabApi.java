package dev.outlierlab.web;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.HingesText;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.hinges.PatternContrast;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The lab's JSON API without the HTTP around it, so it can be tested and reused: run a scenario given as
 * JSON, read a scenario file (YAML or JSON) into its canonical JSON, and describe the controls. Bad input
 * is an {@link ApiException} (400) whose message names the problem; the config module's
 * {@link InputException} messages pass through unchanged.
 */
final class LabApi {
    private static final ObjectMapper MAPPER = ResultJson.mapper();
    private static final ObjectWriter WRITER = MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectReader STRICT_READER = MAPPER.reader()
            .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final SimulationLimits limits;
    private final byte[] settings;

    LabApi(SimulationLimits limits) {
        this.limits = limits;
        this.settings = write(LabControls.settingsJson(limits));
    }

    SimulationLimits limits() {
        return limits;
    }

    /**
     * {@code POST /api/run}: the scenario (JSON, any subset of the file's keys) run with charts; a
     * {@code profile: gateway} scenario runs on the gateway simulator ({@link GatewayLabRun}), a
     * {@code profile: grpc} one under gRPC's outlier detection ({@link GrpcLabRun}).
     */
    byte[] run(String body) {
        return run(body, RunWatcher.NONE);
    }

    /** As {@link #run(String)}, with a watcher that may stop the run (the server's deadline). */
    byte[] run(String body, RunWatcher watcher) {
        ScenarioReader.Profiled profiled = parseJsonScenario(body);
        return write(lab(profiled).run(profiled, limits, watcher));
    }

    /** The profile's facet in the lab; a profile without one is refused with the names of those that have it. */
    private static LabProfile lab(ScenarioReader.Profiled profiled) {
        return profiled.profile()
                .facet(LabProfile.class)
                .orElseThrow(() -> ApiException.badRequest("profile: " + profiled.name()
                        + " has no browser lab; the lab takes " + Profiles.namesWith(LabProfile.class)));
    }

    /**
     * {@code POST /api/compare}: the scenario's traffic and faults under every profile whose lab gives a column, side
     * by side ({@link LabComparison}); each run admitted as for {@code /api/run}.
     */
    byte[] compare(String body, RunWatcher watcher) {
        return write(LabComparison.compare(parseJsonScenario(body), limits, watcher));
    }

    /**
     * {@code POST /api/hinges}: the "What the answer hinges on" lines ({@link HingesText}) of the scenario, with
     * the other fault pattern run and compared: asked by the page after it has shown the run, so the table does
     * not wait for a second run. The scenario is admitted as for {@code /api/run}; the two runs take twice its work.
     */
    byte[] hinges(String body, RunWatcher watcher) {
        ScenarioReader.Profiled profiled = parseJsonScenario(body);
        if (!profiled.profile().capabilities().contains(Capability.ENVOY_REPORT)) {
            throw ApiException.badRequest("/api/hinges takes profile: " + Profiles.namesThatCan(Capability.ENVOY_REPORT)
                    + " scenarios; this scenario's profile is " + profiled.name());
        }
        Scenario scenario = profiled.envoy().scenario();
        limits.check(scenario);
        RunResult result = Simulation.run(scenario, RunOptions.DEFAULT.watchedBy(watcher));
        ObjectNode tree = MAPPER.createObjectNode();
        tree.set("hinges", hingeLines(result, PatternContrast.of(result, watcher)));
        return write(tree);
    }

    static ArrayNode hingeLines(RunResult result, PatternContrast contrast) {
        ArrayNode lines = MAPPER.createArrayNode();
        for (HingesText.Line l : HingesText.lines(result, contrast, "outlier-lab run SCENARIO")) {
            boolean pending = l.label().equals("pattern") && contrast.other() == null;
            lines.addObject()
                    .put("label", l.label())
                    .put(
                            "text",
                            pending
                                    ? "comparing with failing "
                                            + (contrast.otherPattern()
                                                            .scenarioName()
                                                            .equals("random")
                                                    ? "at random"
                                                    : "evenly")
                                            + " (a second run)…"
                                    : l.text());
        }
        return lines;
    }

    /** {@code POST /api/scenario}: a scenario file's text (YAML or JSON) as {@code {"scenario": canonical}}. */
    byte[] scenario(String text, String sourceName) {
        ScenarioReader.Profiled profiled = ScenarioReader.readProfiledWithoutAliases(text, sourceName);
        ObjectNode root = MAPPER.createObjectNode();
        root.set("scenario", MAPPER.valueToTree(lab(profiled).scenario(profiled)));
        return write(root);
    }

    /** {@code GET /api/settings}: limits, defaults, the controls of both profiles and every outlier_detection field. */
    byte[] settings() {
        return settings.clone();
    }

    /** Strict JSON first (so malformed JSON gets a JSON message), then the scenario rules. */
    private static ScenarioReader.Profiled parseJsonScenario(String body) {
        JsonNode tree;
        try {
            tree = STRICT_READER.readTree(body);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            String problem = e.getOriginalMessage()
                    .replaceAll(
                            "\\(start marker at \\[Source: [^;]*; line: (\\d+), column: (\\d+)\\]\\)",
                            "(opened at line $1, column $2)");
            throw ApiException.badRequest("malformed JSON" + where + ": " + problem);
        }
        if (tree == null || tree.isMissingNode()) {
            throw ApiException.badRequest(
                    "malformed JSON: the request body is empty; send a scenario as a JSON object, e.g. {}");
        }
        if (!tree.isObject()) {
            throw ApiException.badRequest(
                    "malformed JSON: a scenario is a JSON object of keys (name, duration, cluster, "
                            + "traffic, faults, outlier_detection, ...), not "
                            + tree.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return ScenarioReader.readProfiledWithoutAliases(body, "request");
    }

    static byte[] write(Object tree) {
        try {
            return WRITER.writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot happen for a tree of plain values", e);
        }
    }

    /** {@code {"error": message}}. */
    static byte[] error(String message) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("error", message);
        return write(n);
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
