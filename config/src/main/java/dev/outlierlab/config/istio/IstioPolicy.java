package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.ScenarioAdapter;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;

/**
 * The outlier detection one DestinationRule gives one Envoy cluster: for the whole service, for one port
 * ({@code portLevelSettings}), or for a subset, translated as istiod translates it. A DestinationRule says
 * nothing of hosts (Kubernetes endpoints supply them) or of active health checks (Istio configures none).
 *
 * @param rule             {@code metadata.name}
 * @param host             {@code spec.host}
 * @param subset           the subset's name, or null for the service's own cluster
 * @param port             the port, or null when the settings apply to every port without port-level ones
 * @param scope            where in the rule the settings are, e.g. {@code spec.trafficPolicy.portLevelSettings[0]}
 * @param line             line of the {@code outlierDetection} block (or of the scope when there is none)
 * @param outlierDetection the translated settings; null when this cluster gets no outlier detection
 * @param fields           every Envoy field with where its value came from (empty without outlier detection)
 * @param warnings         translations that do not do what they seem to
 * @param notes            settings read but not modelled
 * @param routing          the balancer policy, locality failover and retries istiod gives this cluster and its
 *                         routes ({@link IstioRouting})
 */
public record IstioPolicy(
        String rule,
        String namespace,
        String host,
        String subset,
        Integer port,
        String scope,
        String source,
        int line,
        OutlierDetectionConfig outlierDetection,
        double panicThresholdPercent,
        List<TranslatedField> fields,
        List<String> warnings,
        List<String> notes,
        RoutingSpec routing) {

    /** This policy with its routes' retries from a VirtualService ({@code retries} null: none). */
    public IstioPolicy withRetries(RetrySpec retries) {
        return toBuilder().routing(routing.withRetries(retries)).build();
    }

    public IstioPolicy {
        fields = List.copyOf(fields);
        warnings = List.copyOf(warnings);
        notes = List.copyOf(notes);
    }

    /** A short name: {@code rule}, {@code rule/subset}, with {@code :port} when port-specific. */
    public String displayName() {
        return rule + (subset == null ? "" : "/" + subset) + (port == null ? "" : ":" + port);
    }

    public boolean hasOutlierDetection() {
        return outlierDetection != null;
    }

    /** The base scenario with these settings and {@code hosts} hosts; its traffic and faults stay. */
    public Scenario toScenario(Scenario base, int hosts) {
        if (outlierDetection == null) {
            throw new InputException(source + ":" + line + ": " + scope + " of DestinationRule '" + rule + "' has no "
                    + "outlierDetection, so istiod configures no outlier detection for " + displayName());
        }
        return ScenarioAdapter.withCluster(
                base,
                displayName(),
                ClusterSpec.ofCount(hosts, panicThresholdPercent),
                outlierDetection,
                null,
                routing,
                List.of());
    }

    /** A builder with no fields, warnings or notes, routed as istiod routes a rule without a traffic policy of its own. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this one. */
    public Builder toBuilder() {
        return new Builder()
                .rule(rule)
                .namespace(namespace)
                .host(host)
                .subset(subset)
                .port(port)
                .scope(scope)
                .source(source)
                .line(line)
                .outlierDetection(outlierDetection)
                .panicThresholdPercent(panicThresholdPercent)
                .fields(fields)
                .warnings(warnings)
                .notes(notes)
                .routing(routing);
    }

    /** Collects the fields by name instead of by position; {@link #build()} validates them as the constructor does. */
    public static final class Builder {
        private String rule;
        private String namespace;
        private String host;
        private String subset;
        private Integer port;
        private String scope;
        private String source;
        private int line;
        private OutlierDetectionConfig outlierDetection;
        private double panicThresholdPercent;
        private List<TranslatedField> fields = List.of();
        private List<String> warnings = List.of();
        private List<String> notes = List.of();
        private RoutingSpec routing;

        private Builder() {}

        public Builder rule(String value) {
            rule = value;
            return this;
        }

        public Builder namespace(String value) {
            namespace = value;
            return this;
        }

        public Builder host(String value) {
            host = value;
            return this;
        }

        public Builder subset(String value) {
            subset = value;
            return this;
        }

        public Builder port(Integer value) {
            port = value;
            return this;
        }

        public Builder scope(String value) {
            scope = value;
            return this;
        }

        public Builder source(String value) {
            source = value;
            return this;
        }

        public Builder line(int value) {
            line = value;
            return this;
        }

        /** The translated settings (null: no outlier detection). */
        public Builder outlierDetection(OutlierDetectionConfig value) {
            outlierDetection = value;
            return this;
        }

        public Builder panicThresholdPercent(double value) {
            panicThresholdPercent = value;
            return this;
        }

        public Builder fields(List<TranslatedField> value) {
            fields = value;
            return this;
        }

        public Builder warnings(List<String> value) {
            warnings = value;
            return this;
        }

        public Builder notes(List<String> value) {
            notes = value;
            return this;
        }

        /** The routing istiod gives (null: as it routes a rule without a traffic policy of its own). */
        public Builder routing(RoutingSpec value) {
            routing = value;
            return this;
        }

        public IstioPolicy build() {
            return new IstioPolicy(
                    rule,
                    namespace,
                    host,
                    subset,
                    port,
                    scope,
                    source,
                    line,
                    outlierDetection,
                    panicThresholdPercent,
                    fields,
                    warnings,
                    notes,
                    routing != null ? routing : IstioRouting.of(null, outlierDetection != null, null, false));
        }
    }
}
