package dev.outlierlab.flink;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.Serializable;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The replay's settings and rendering as plain values that the job ships to its workers: each setting's scenario
 * as the text of a scenario file ({@code ScenarioWriter}, read back with {@code ScenarioReader}, as
 * {@code --compare-set} does), whether it names the hosts, the duration, and what each detector's section needs.
 *
 * @param outputDirectory where each detector's decisions go ({@code --output-dir}), or null
 * @param eventLogs       also each detector's decisions as Envoy's outlier event log
 */
record FleetSettings(Shipped firstScenario, boolean firstHostsGiven, Shipped secondScenario, boolean secondHostsGiven,
                     Long durationNanos, List<String> logs, String formatName, String compareLabel,
                     List<String> compareSets, String compareFile, int maxEvents, boolean json,
                     String outputDirectory, boolean eventLogs) implements Serializable {

    static FleetSettings of(ReplayCommand.FleetRequest r, String outputDirectory, boolean eventLogs) {
        return new FleetSettings(text(r.first()), r.firstHostsGiven(), r.second() == null ? null : text(r.second()),
                r.secondHostsGiven(), r.durationNanos(), r.logs(), r.settings().format().name(), r.compareLabel(),
                r.compareSets(), r.compareFile(), r.maxEvents(), r.json(), outputDirectory, eventLogs);
    }

    Scenario first() {
        return read(firstScenario);
    }

    /** The second settings, or null. */
    Scenario second() {
        return secondScenario == null ? null : read(secondScenario);
    }

    /**
     * A scenario as text, and its outlier settings exactly: the values of those given explicitly (the others are
     * Envoy's defaults or derived from them), which the text alone would all mark as given.
     */
    record Shipped(String text, Map<OutlierSetting, Long> explicit) implements Serializable {
    }

    private static Shipped text(Scenario s) {
        try {
            Map<OutlierSetting, Long> explicit = new EnumMap<>(OutlierSetting.class);
            for (OutlierSetting o : OutlierSetting.values()) {
                if (s.outlierDetection().isExplicit(o)) {
                    explicit.put(o, s.outlierDetection().get(o));
                }
            }
            return new Shipped(ResultJson.mapper().writeValueAsString(ScenarioWriter.toMap(s)), explicit);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Scenario read(Shipped shipped) {
        Scenario s = ScenarioReader.read(shipped.text(), "the replay's settings", List.of()).scenario();
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        shipped.explicit().forEach(b::set);
        return new Scenario(s.name(), s.durationNanos(), s.seed(), s.cluster(), s.traffic(), s.faults(), b.build(),
                s.healthChecks(), s.envoyVersion(), s.load());
    }
}
