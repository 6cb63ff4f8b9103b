package dev.outlierlab.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRunJson;
import dev.outlierlab.report.proxies.ServerRuns;
import dev.outlierlab.sim.RunWatcher;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A proxy's own passive checks (nginx, HAProxy, Caddy) in the browser lab: {@code POST /api/run} answers the run's
 * JSON as {@code run --format json} writes it (every {@code eject} and {@code uneject} with the server's reason), and
 * {@code GET /api/settings} describes the controls of the profile's block under the profile's name.
 */
abstract class ServerLab implements Profile, LabProfile {
    private static final ObjectMapper MAPPER = ResultJson.mapper();

    /** One control of the profile's block: its key, its kind, its default and what it does. */
    record Control(String key, String kind, Object value, String help) {}

    abstract ServerRun simulate(ScenarioReader.Profiled profiled);

    abstract Map<String, Object> block(ScenarioReader.Profiled profiled);

    /** The controls, in the order the page shows them. */
    abstract List<Control> controls();

    /** The block this server's column of the comparison runs with. */
    abstract Map<String, Object> comparedBlock();

    /** What the comparison says of that block. */
    abstract String comparedAbout();

    @Override
    public boolean comparable() {
        return true;
    }

    /** The base scenario's hosts, traffic and faults through this server with {@link #comparedBlock()}. */
    @Override
    public Optional<LabColumn> compared(ScenarioReader.Profiled base, SimulationLimits limits) {
        Map<String, Object> document = ScenarioWriter.toMap(base.envoy().scenario());
        document.remove("outlier_detection");
        document.remove("health_checks");
        document.put("profile", name());
        document.put(name(), comparedBlock());
        ScenarioReader.Profiled profiled = ScenarioReader.readPlain(document, "compare", List.of());
        limits.check(profiled.envoy().scenario());
        return Optional.of(new LabColumn() {
            @Override
            public ProfileComparison.Column run(RunWatcher watcher) {
                return ProfileComparison.column(name(), simulate(profiled));
            }

            @Override
            public JsonNode about() {
                return TextNode.valueOf(comparedAbout());
            }
        });
    }

    @Override
    public ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        limits.check(profiled.envoy().scenario());
        return ServerRunJson.toTree(simulate(profiled), scenario(profiled));
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled profiled) {
        return ServerRuns.scenario(profiled, block(profiled));
    }

    @Override
    public Optional<ObjectNode> controls(SimulationLimits limits) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode list = root.putArray("controls");
        for (Control c : controls()) {
            ObjectNode o = list.addObject();
            o.put("key", name() + "." + c.key());
            o.put("kind", c.kind());
            o.set("default", MAPPER.valueToTree(c.value()));
            o.put("help", c.help());
        }
        return Optional.of(root);
    }
}
