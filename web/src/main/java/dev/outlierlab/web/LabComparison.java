package dev.outlierlab.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.sim.RunWatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /api/compare}: a scenario's traffic and faults under every profile whose lab gives a column
 * ({@link LabProfile#compared}), in the registry's order, side by side. Every column is admitted by the limits before
 * any runs.
 */
final class LabComparison {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LabComparison() {}

    static ObjectNode compare(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        Map<String, LabColumn> made = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (Profiles.Registered p : Profiles.withFacet(LabProfile.class)) {
            LabProfile lab = p.facet(LabProfile.class).orElseThrow();
            if (lab.comparable()) {
                names.add(p.name());
            }
        }
        if (!profiled.profile().capabilities().contains(Capability.COMPARISON_BASE)) {
            List<String> bases = Profiles.all().stream()
                    .filter(p -> p.can(Capability.COMPARISON_BASE))
                    .map(p -> "profile: " + p.name())
                    .toList();
            throw ApiException.badRequest("profile: the comparison takes a " + Profiles.orList(bases)
                    + " scenario and runs its traffic under "
                    + Profiles.orList(names).replace(" or ", " and ") + "; this scenario's profile is "
                    + profiled.name());
        }
        for (Profiles.Registered p : Profiles.withFacet(LabProfile.class)) {
            Optional<LabColumn> c = p.facet(LabProfile.class).orElseThrow().compared(profiled, limits);
            c.ifPresent(column -> made.put(p.name(), column));
        }
        List<ProfileComparison.Column> columns = new ArrayList<>();
        made.values().forEach(c -> columns.add(c.run(watcher)));
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode cols = root.putArray("columns");
        for (ProfileComparison.Column c : columns) {
            ObjectNode n = cols.addObject();
            n.put("profile", c.profile());
            n.put("requests", c.requests());
            n.put("failed", c.failed());
            n.put("requests_during_fault", c.requestsDuringFault());
            n.put("failed_during_fault", c.failedDuringFault());
            n.put(
                    "failed_percent_during_fault",
                    c.requestsDuringFault() == 0 ? 0 : c.failedDuringFault() * 100.0 / c.requestsDuringFault());
            n.put("detections", c.detections());
            n.put("ejections", c.ejections());
            n.put("refused", c.refused());
            n.put("returns", c.returns());
            n.put("most_out", c.mostOut());
            c.ejectedAt().forEach(n.putArray("ejected_at")::add);
            c.returnedAt().forEach(n.putArray("returned_at")::add);
        }
        root.put("text", ProfileComparison.text(columns));
        made.forEach((name, c) -> {
            if (c.about() != null) {
                root.set(name, c.about());
            }
        });
        return root;
    }
}
