package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code --set} in Istio's own names, for a DestinationRule input: {@code consecutive5xxErrors=3},
 * {@code outlierDetection.baseEjectionTime=15m} or {@code trafficPolicy.outlierDetection.minHealthPercent=50} set
 * the field in the rule's {@code outlierDetection}, which istiod then translates as it would the file's own
 * ({@link IstioOutlierTranslator}): {@code consecutive5xxErrors: 3} also enforces it, {@code maxEjectionPercent: 0}
 * leaves Envoy's default, {@code minHealthPercent} is the panic threshold.
 *
 * @param fields Istio field -> the value given, in the order given
 * @param others the overrides that are not Istio fields (Envoy's names, the scenario's keys), in order
 */
public record IstioOverrides(Map<String, Located> fields, List<String> others) {
    public static final IstioOverrides NONE = new IstioOverrides(Map.of(), List.of());

    private static final List<String> PREFIXES =
            List.of("trafficPolicy.outlierDetection.", "outlierDetection.", "outlier_detection.", "");

    public IstioOverrides {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        others = List.copyOf(others);
    }

    /** The Istio fields among {@code KEY=VALUE} overrides, and the rest. */
    public static IstioOverrides split(List<String> sets) {
        Map<String, Located> fields = new LinkedHashMap<>();
        List<String> others = new ArrayList<>();
        for (String set : sets) {
            String name = istioName(set);
            if (name == null) {
                others.add(set);
            } else {
                String key = set.substring(0, set.indexOf('=')).strip();
                fields.put(name, YamlTree.parseValue(set.substring(set.indexOf('=') + 1), "--set " + key));
            }
        }
        return new IstioOverrides(fields, others);
    }

    /** The Istio field an override sets, or null when it sets something else. */
    static String istioName(String set) {
        int eq = set.indexOf('=');
        if (eq <= 0) {
            return null;
        }
        String key = set.substring(0, eq).strip();
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix)) {
                String name = key.substring(prefix.length());
                boolean envoyName = prefix.equals("outlier_detection.") && isEnvoyName(name);
                if (IstioOutlierTranslator.FIELDS.contains(name) && !envoyName) {
                    return name;
                }
                if (!prefix.isEmpty() && !prefix.equals("outlier_detection.") && !name.contains(".")) {
                    String near = Wording.nearest(name, IstioOutlierTranslator.FIELDS);
                    throw new InputException("--set " + key + ": Istio's OutlierDetection has "
                            + "no field " + Wording.printable(name)
                            + (near == null ? "" : "; did you mean " + near + "?")
                            + " Known fields: "
                            + String.join(", ", new TreeSet<>(IstioOutlierTranslator.FIELDS)));
                }
            }
        }
        return null;
    }

    private static boolean isEnvoyName(String name) {
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.envoyName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /** The rule's {@code outlierDetection} node with these fields set over it (a new one when it has none). */
    @SuppressWarnings("unchecked")
    Located over(Located outlierDetection) {
        if (fields.isEmpty()) {
            return outlierDetection;
        }
        Map<String, Located> merged = new LinkedHashMap<>();
        String origin = "--set";
        if (outlierDetection != null && outlierDetection.value() instanceof Map<?, ?> m) {
            merged.putAll((Map<String, Located>) m);
            origin = outlierDetection.origin();
        }
        merged.putAll(fields);
        return new Located(merged, origin);
    }
}
