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

    /** A target without routing settings of its own. */
    public CheckTarget(
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
            boolean hostsAtLeast) {
        this(
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
                RoutingSpec.NONE);
    }

    /** The same target with the routing its configuration gives. */
    public CheckTarget withRouting(RoutingSpec r) {
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
                r);
    }

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

    /** A target whose host count, if any, is exact. */
    public CheckTarget(
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
            GatewayTarget gateway) {
        this(
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
                false);
    }

    /** The same target, its host count a lower bound or not. */
    public CheckTarget withHostsAtLeast(boolean atLeast) {
        return atLeast == hostsAtLeast
                ? this
                : new CheckTarget(
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
                        atLeast,
                        routing);
    }

    /** An Envoy cluster or a translated resource (no gateway settings). */
    public CheckTarget(
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
            List<String> notes) {
        this(
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
                null);
    }
}
