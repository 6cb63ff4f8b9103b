package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRunJson;
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

    @Override
    public ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        limits.check(profiled.envoy().scenario());
        return ServerRunJson.toTree(simulate(profiled), scenario(profiled));
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled profiled) {
        return dev.outlierlab.report.proxies.ServerRuns.scenario(profiled, block(profiled));
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
