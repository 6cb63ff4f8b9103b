package dev.outlierlab.config.kube;

import dev.outlierlab.config.istio.TranslatedField;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.List;

/**
 * The Envoy outlier settings a control plane's resource gives one cluster (an Envoy Gateway
 * BackendTrafficPolicy, one entry of a Kuma MeshCircuitBreaker), translated as its controller translates it.
 *
 * @param kind             the resource's kind, e.g. {@code BackendTrafficPolicy}
 * @param name             a short name: the resource's, with the entry when it has several
 * @param scope            where in the resource the settings are, e.g. {@code spec.to[0].default.outlierDetection}
 * @param line             line of the settings block (of the resource when there is none)
 * @param outlierDetection the translated settings; null when the controller configures no outlier detection
 * @param healthChecks     an active health check the same resource configures, or null
 * @param fields           every Envoy field the resource decides, with where its value came from
 * @param warnings         translations that do not do what they seem to
 */
public record TranslatedPolicy(
        String kind,
        String name,
        String scope,
        String source,
        int line,
        OutlierDetectionConfig outlierDetection,
        double panicThresholdPercent,
        HealthCheckSpec healthChecks,
        List<TranslatedField> fields,
        List<String> warnings) {

    public TranslatedPolicy {
        fields = List.copyOf(fields);
        warnings = List.copyOf(warnings);
    }
}
