package dev.outlierlab.check;

import dev.outlierlab.config.istio.TranslatedField;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.List;

/**
 * One cluster's outlier-detection configuration as {@code check} sees it, from an Envoy cluster or a translated
 * DestinationRule: the effective settings (null when there are none or Envoy rejects them), the panic
 * threshold, the active health check, the host count when the file says it, and what the reader already
 * knows is wrong or surprising.
 *
 * @param line     line of the outlier-detection block (of the cluster when there is none)
 * @param hosts    the number of hosts, or null when the file does not say
 * @param problems settings Envoy rejects
 * @param warnings translation surprises (Istio)
 * @param notes    parts of the cluster read but not modelled
 * @param translation for a DestinationRule, every Envoy field with where its value came from; else empty
 * @param gateway  for a gateway configuration (profile gateway), its settings; null for Envoy and Istio
 * @param hostsAtLeast whether {@code hosts} is only a lower bound (DNS names, each one or more addresses): the
 *                 findings that need the exact size are then not given, as without a count
 * @param routing  the balancer policy, overprovisioning factor, {@code fail_traffic_on_panic}, locality failover
 *                 and retries the configuration gives ({@link RoutingSpec#NONE} where it says nothing of them)
 */
public record CheckTarget(
        String name,
        FixStyle style,
        String file,
        int line,
        boolean hasOutlierDetection,
        OutlierDetectionConfig config,
        double panicThresholdPercent,
        HealthCheckSpec healthChecks,
        Integer hosts,
        List<Problem> problems,
        List<String> warnings,
        List<TranslatedField> translation,
        List<String> notes,
        GatewayTarget gateway,
        boolean hostsAtLeast,
        RoutingSpec routing) {

    /** A setting Envoy rejects: the message (naming the field and what is allowed) and its line. */
    public record Problem(String message, int line, boolean envoyAccepts) {
        public Problem(String message, int line) {
            this(message, line, false);
        }
    }

    public CheckTarget {
        problems = List.copyOf(problems);
        warnings = List.copyOf(warnings);
        translation = List.copyOf(translation);
        notes = List.copyOf(notes);
        routing = routing == null ? RoutingSpec.NONE : routing;
    }

    /** A builder with no problems, warnings, translation or notes, no gateway settings, an exact host count and {@link RoutingSpec#NONE}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this one. */
    public Builder toBuilder() {
        return new Builder()
                .name(name)
                .style(style)
                .file(file)
                .line(line)
                .hasOutlierDetection(hasOutlierDetection)
                .config(config)
                .panicThresholdPercent(panicThresholdPercent)
                .healthChecks(healthChecks)
                .hosts(hosts)
                .problems(problems)
                .warnings(warnings)
                .translation(translation)
                .notes(notes)
                .gateway(gateway)
                .hostsAtLeast(hostsAtLeast)
                .routing(routing);
    }

    /** Collects the fields by name instead of by position; {@link #build()} validates them as the constructor does. */
    public static final class Builder {
        private String name;
        private FixStyle style;
        private String file;
        private int line;
        private boolean hasOutlierDetection;
        private OutlierDetectionConfig config;
        private double panicThresholdPercent;
        private HealthCheckSpec healthChecks;
        private Integer hosts;
        private List<Problem> problems = List.of();
        private List<String> warnings = List.of();
        private List<TranslatedField> translation = List.of();
        private List<String> notes = List.of();
        private GatewayTarget gateway;
        private boolean hostsAtLeast;
        private RoutingSpec routing = RoutingSpec.NONE;

        private Builder() {}

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder style(FixStyle value) {
            style = value;
            return this;
        }

        public Builder file(String value) {
            file = value;
            return this;
        }

        public Builder line(int value) {
            line = value;
            return this;
        }

        public Builder hasOutlierDetection(boolean value) {
            hasOutlierDetection = value;
            return this;
        }

        /** The effective settings (null: none, or Envoy rejects them). */
        public Builder config(OutlierDetectionConfig value) {
            config = value;
            return this;
        }

        public Builder panicThresholdPercent(double value) {
            panicThresholdPercent = value;
            return this;
        }

        public Builder healthChecks(HealthCheckSpec value) {
            healthChecks = value;
            return this;
        }

        /** The number of hosts (null: the file does not say). */
        public Builder hosts(Integer value) {
            hosts = value;
            return this;
        }

        public Builder problems(List<Problem> value) {
            problems = value;
            return this;
        }

        public Builder warnings(List<String> value) {
            warnings = value;
            return this;
        }

        public Builder translation(List<TranslatedField> value) {
            translation = value;
            return this;
        }

        public Builder notes(List<String> value) {
            notes = value;
            return this;
        }

        public Builder gateway(GatewayTarget value) {
            gateway = value;
            return this;
        }

        public Builder hostsAtLeast(boolean value) {
            hostsAtLeast = value;
            return this;
        }

        public Builder routing(RoutingSpec value) {
            routing = value;
            return this;
        }

        public CheckTarget build() {
            return new CheckTarget(
                    name,
                    style,
                    file,
                    line,
                    hasOutlierDetection,
                    config,
                    panicThresholdPercent,
                    healthChecks,
                    hosts,
                    problems,
                    warnings,
                    translation,
                    notes,
                    gateway,
                    hostsAtLeast,
                    routing);
        }
    }
}
