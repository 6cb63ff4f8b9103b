package dev.outlierlab.flink;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.Serializable;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario as plain values that a job ships to its workers: the text of a scenario file ({@code ScenarioWriter},
 * read back with {@code ScenarioReader}, as {@code --compare-set} does), and its outlier settings exactly: the
 * values of those given explicitly (the others are Envoy's defaults or derived from them), which the text alone
 * would all mark as given.
 */
record ShippedScenario(String text, Map<OutlierSetting, Long> explicit) implements Serializable {

    static ShippedScenario of(Scenario s) {
        try {
            Map<OutlierSetting, Long> explicit = new EnumMap<>(OutlierSetting.class);
            for (OutlierSetting o : OutlierSetting.values()) {
                if (s.outlierDetection().isExplicit(o)) {
                    explicit.put(o, s.outlierDetection().get(o));
                }
            }
            return new ShippedScenario(ResultJson.mapper().writeValueAsString(ScenarioWriter.toMap(s)), explicit);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The scenario again, equal to the one shipped. */
    Scenario scenario() {
        Scenario s = ScenarioReader.read(text, "the job's scenario", List.of()).scenario();
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        explicit.forEach(b::set);
        return s.toBuilder().outlierDetection(b.build()).build();
    }
}
