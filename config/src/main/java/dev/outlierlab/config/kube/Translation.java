package dev.outlierlab.config.kube;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.istio.TranslatedField;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the Envoy settings a controller sets, each with where its value came from, and builds them with
 * Envoy's defaults for the rest; {@link #fields()} lists only what the resource or the controller decided.
 */
final class Translation {
    private final Map<OutlierSetting, Long> set = new EnumMap<>(OutlierSetting.class);
    private final Map<OutlierSetting, String> from = new EnumMap<>(OutlierSetting.class);
    private final List<TranslatedField> extra = new ArrayList<>();

    void set(OutlierSetting s, long value, String why) {
        set.put(s, value);
        from.put(s, why);
    }

    /** A field outside outlier_detection (the panic threshold), for the listing. */
    void other(String envoyField, String value, String why) {
        extra.add(new TranslatedField(envoyField, value, why));
    }

    OutlierDetectionConfig build(Located at, String path) {
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        set.forEach(b::set);
        try {
            return b.build();
        } catch (InvalidConfigException e) {
            throw new InputException(
                    at.origin() + ": " + path + ": Envoy rejects the translated settings: " + e.getMessage());
        }
    }

    List<TranslatedField> fields(OutlierDetectionConfig config) {
        List<TranslatedField> out = new ArrayList<>();
        for (OutlierSetting s : OutlierSetting.values()) {
            if (from.containsKey(s)) {
                out.add(new TranslatedField(
                        "outlier_detection." + s.envoyName(),
                        String.valueOf(ScenarioWriter.settingValue(s, config.get(s))),
                        from.get(s)));
            }
        }
        out.addAll(extra);
        return out;
    }
}
