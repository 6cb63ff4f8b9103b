package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyClusterWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where a recommendation goes and what it can say there: an Envoy cluster (every field), an Istio DestinationRule
 * (istiod's {@code applyOutlierDetection}: consecutive errors, interval, ejection time and cap; success rate always
 * off), an Envoy Gateway BackendTrafficPolicy ({@code buildXdsOutlierDetection}: its passive fields; success rate
 * always on at Envoy's defaults), or a Kuma MeshCircuitBreaker ({@code configureOutlierDetection}: its detectors, no
 * always-eject-one), a gRPC service config (grpc-java's {@code OutlierDetectionLoadBalancer}: success rate and
 * failure percentage only, the cap tested before each ejection so that the first is always allowed), or a gateway
 * configuration (the gateway profile's own settings, {@code GatewayDetector}). Each writes a {@link Setting} in its
 * own format and reads it back with the project's reader for that format, which gives the settings the simulation
 * runs.
 */
public enum Target {
    ENVOY(
            "envoy",
            "an Envoy cluster",
            EnumSet.of(
                    Can.ENVOY_FIELDS,
                    Can.CONSECUTIVE,
                    Can.TURN_OFF_CONSECUTIVE,
                    Can.SUCCESS_RATE,
                    Can.FAILURE_PERCENTAGE,
                    Can.FAILURE_PERCENTAGE_VOLUME,
                    Can.ALWAYS_EJECT_ONE)),
    ISTIO("istio", "an Istio DestinationRule", EnumSet.of(Can.ENVOY_FIELDS, Can.CONSECUTIVE, Can.TURN_OFF_CONSECUTIVE)),
    ENVOY_GATEWAY(
            "envoy-gateway",
            "an Envoy Gateway BackendTrafficPolicy",
            EnumSet.of(Can.ENVOY_FIELDS, Can.CONSECUTIVE, Can.FAILURE_PERCENTAGE, Can.ALWAYS_EJECT_ONE)),
    KUMA(
            "kuma",
            "a Kuma MeshCircuitBreaker",
            EnumSet.of(
                    Can.ENVOY_FIELDS,
                    Can.CONSECUTIVE,
                    Can.TURN_OFF_CONSECUTIVE,
                    Can.SUCCESS_RATE,
                    Can.FAILURE_PERCENTAGE,
                    Can.FAILURE_PERCENTAGE_VOLUME)),
    GRPC(
            "grpc",
            "a gRPC service config (grpc-java)",
            EnumSet.of(
                    Can.TURN_OFF_CONSECUTIVE,
                    Can.SUCCESS_RATE,
                    Can.FAILURE_PERCENTAGE,
                    Can.FAILURE_PERCENTAGE_VOLUME,
                    Can.CAP_BEFORE_EJECTION)),
    GATEWAY("gateway", "a gateway configuration", EnumSet.of(Can.CONSECUTIVE, Can.TURN_OFF_CONSECUTIVE));

    /**
     * What a target's file can say, as a positive set: a target can set nothing it does not list, so a new target
     * starts with no detector rather than with Envoy's.
     */
    public enum Can {
        /** Envoy's outlier detection fields, written by Envoy or a control plane. */
        ENVOY_FIELDS,
        /** Consecutive-failure detectors. */
        CONSECUTIVE,
        /** Turning consecutive-5xx ejection off. */
        TURN_OFF_CONSECUTIVE,
        /** Choosing success-rate ejection. */
        SUCCESS_RATE,
        /** Failure-percentage ejection's threshold. */
        FAILURE_PERCENTAGE,
        /** Failure percentage's volume and minimum hosts. */
        FAILURE_PERCENTAGE_VOLUME,
        /** always_eject_one_host (from Envoy 1.31). */
        ALWAYS_EJECT_ONE,
        /**
         * The cap is tested before each ejection, so the first is always allowed (grpc-java's
         * {@code ejected / hosts * 100 >= max} stops; its key is {@code maxEjectionPercentage}).
         */
        CAP_BEFORE_EJECTION
    }

    /** Envoy Gateway's success rate: Envoy's defaults, always enforced (the policy has no field for it). */
    static final long ENVOY_DEFAULT_SR_FACTOR = 1900;

    static final long ENVOY_DEFAULT_SR_VOLUME = 100;
    static final long ENVOY_DEFAULT_SR_HOSTS = 5;
    static final long ENVOY_DEFAULT_FP_VOLUME = 50;
    static final long ENVOY_DEFAULT_FP_HOSTS = 5;

    private final String flag;
    private final String description;
    private final Set<Can> can;

    Target(String flag, String description, Set<Can> can) {
        this.flag = flag;
        this.description = description;
        this.can = Set.copyOf(can);
    }

    /** Whether the target's file can say this. */
    public boolean can(Can what) {
        return can.contains(what);
    }

    /** The value of {@code --target}. */
    public String flag() {
        return flag;
    }

    public String description() {
        return description;
    }

    /** The target named by {@code --target}. */
    public static Target byFlag(String name) {
        for (Target t : values()) {
            if (t.flag.equals(name)) {
                return t;
            }
        }
        throw new InputException("--target: '" + shorten(name)
                + "' is not a target; expected envoy, istio, envoy-gateway, " + "kuma, grpc or gateway");
    }

    /**
     * The settings and what was written: the file's text, the Envoy settings and panic threshold it gives (for gRPC,
     * its settings in Envoy's fields; unused for the gateway) and the profile the simulation runs it under.
     */
    public record Written(
            String text, OutlierDetectionConfig config, double panicThresholdPercent, RunProfile profile) {
        public Written(String text, OutlierDetectionConfig config, double panicThresholdPercent) {
            this(text, config, panicThresholdPercent, RunProfile.ENVOY);
        }
    }

    /** Whether the target is Envoy's outlier detection, written by Envoy or a control plane. */
    public boolean isEnvoy() {
        return can(Can.ENVOY_FIELDS);
    }

    /** Whether the target has consecutive-failure detectors among the Envoy fields (gRPC has none). */
    public boolean hasConsecutive() {
        return can(Can.CONSECUTIVE);
    }

    /** The cap's key in the target's file, for the words of the explanation. */
    public String capKey() {
        return can(Can.CAP_BEFORE_EJECTION) ? "maxEjectionPercentage" : "max_ejection_percent";
    }

    /**
     * Whether another host may be ejected with {@code ejected} of {@code hosts} out under this cap: Envoy's rule of
     * the release ({@link CapRule}), or grpc-java's ({@code ejected / hosts * 100 >= max} stops, so the first ejection
     * is always allowed but for a cap of 0).
     */
    public boolean admits(CapRule rule, int ejected, int hosts, long max, boolean alwaysEjectOne) {
        if (can(Can.CAP_BEFORE_EJECTION)) {
            return !(((double) ejected / hosts) * 100 >= max);
        }
        return rule.allows(ejected, hosts, max, alwaysEjectOne);
    }

    /** Whether the target can turn consecutive-5xx ejection off. */
    public boolean canTurnOffConsecutive() {
        return can(Can.TURN_OFF_CONSECUTIVE);
    }

    /** Whether the target can set success-rate ejection (Istio never runs it; Envoy Gateway always does, at defaults). */
    public boolean choosesSuccessRate() {
        return can(Can.SUCCESS_RATE);
    }

    /** Whether the target can set failure-percentage ejection (threshold; volume and hosts for Envoy, Kuma, gRPC). */
    public boolean hasFailurePercentage() {
        return can(Can.FAILURE_PERCENTAGE);
    }

    /** Whether failure percentage's volume and minimum hosts can be chosen. */
    public boolean choosesFailurePercentageVolume() {
        return can(Can.FAILURE_PERCENTAGE_VOLUME);
    }

    /** Whether the target can set always_eject_one_host (a field from Envoy 1.31; an older Envoy rejects it). */
    public boolean hasAlwaysEjectOne(EnvoyVersion version) {
        return can(Can.ALWAYS_EJECT_ONE) && version.atLeast(EnvoyVersion.addedIn(OutlierSetting.ALWAYS_EJECT_ONE_HOST));
    }

    /**
     * Writes the setting as this target's file for a cluster named {@code name}, on top of {@code base} (an Envoy
     * cluster keeps the base's other fields), and reads it back.
     *
     * @throws InputException when the target's reader refuses it (a defect of the writer)
     */
    public Written write(Setting s, String name, int hosts, OutlierDetectionConfig base, double panicThresholdPercent) {
        return write(s, name, hosts, base, panicThresholdPercent, RunProfile.ENVOY);
    }

    /**
     * Writes the setting for the request's cluster and reads it back; a gateway configuration keeps the current
     * routing ({@code current}'s), which the search does not change.
     */
    public Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current) {
        return write(s, name, hosts, base, panicThresholdPercent, current, EnvoyVersion.DEFAULT);
    }

    /**
     * Writes the setting for the request's cluster and Envoy release and reads it back: a field the release does not
     * have is not written (the release's default applies), so the file is one that release accepts.
     */
    public Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current,
            EnvoyVersion version) {
        if (this == GRPC) {
            String text = ProfileFiles.serviceConfig(s);
            var read = ProfileFiles.readServiceConfig(text, "tune:grpc");
            return new Written(text, ProfileFiles.asEnvoyFields(read), 0, RunProfile.grpc(read));
        }
        if (this == GATEWAY) {
            var routing = current.routing() != null
                    ? current.routing()
                    : dev.outlierlab.engine.gateway.RoutingConfig.defaults();
            String text = ProfileFiles.gatewayConfig(s.gateway(), hosts, routing);
            CheckTarget read = ProfileFiles.readGateway(text, "tune:gateway");
            return new Written(
                    text,
                    OutlierDetectionConfig.defaults(),
                    0,
                    RunProfile.gateway(read.gateway().gateway(), read.gateway().routing()));
        }
        String text = switch (this) {
            case ENVOY ->
                EnvoyClusterWriter.toYaml(new Scenario(
                        name,
                        Durations.SECOND,
                        1,
                        ClusterSpec.ofCount(hosts, panicThresholdPercent),
                        new TrafficSpec(1),
                        List.of(),
                        s.applyTo(base, version),
                        null,
                        version));
            case ISTIO -> istio(s, name, panicThresholdPercent);
            case ENVOY_GATEWAY -> envoyGateway(s, name, panicThresholdPercent);
            case KUMA -> kuma(s, name, panicThresholdPercent);
            case GRPC, GATEWAY -> throw new IllegalStateException(flag + " is written above");
        };
        List<CheckTarget> read =
                CheckInputs.read(text, "tune:" + flag, null, false).targets();
        if (read.size() != 1 || read.get(0).config() == null) {
            throw new InputException("tune: " + description + " written for " + s.label()
                    + " does not read back as one " + "cluster's outlier detection");
        }
        return new Written(text, read.get(0).config(), read.get(0).panicThresholdPercent());
    }

    private static String istio(Setting s, String name, double panic) {
        StringBuilder y = new StringBuilder();
        y.append("apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: ")
                .append(kube(name))
                .append("\nspec:\n  host: ")
                .append(kube(name))
                .append("\n  trafficPolicy:\n    outlierDetection:\n");
        y.append("      consecutive5xxErrors: ").append(s.consecutive5xx()).append('\n');
        y.append("      interval: ").append(go(s.intervalNanos())).append('\n');
        y.append("      baseEjectionTime: ")
                .append(go(s.baseEjectionTimeNanos()))
                .append('\n');
        y.append("      maxEjectionPercent: ").append(s.maxEjectionPercent()).append('\n');
        if (panic > 0) {
            y.append("      minHealthPercent: ").append(whole(panic)).append('\n');
        }
        return y.toString();
    }

    private static String envoyGateway(Setting s, String name, double panic) {
        StringBuilder y = new StringBuilder();
        y.append("apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata:\n  name: ")
                .append(kube(name))
                .append("\nspec:\n  targetRefs:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n"
                        + "    name: ")
                .append(kube(name))
                .append("\n  healthCheck:\n");
        if (panic != 50) {
            y.append("    panicThreshold: ").append(whole(panic)).append('\n');
        }
        y.append("    passive:\n");
        y.append("      consecutive5XxErrors: ")
                .append(Math.max(1, s.consecutive5xx()))
                .append('\n');
        y.append("      interval: ").append(go(s.intervalNanos())).append('\n');
        y.append("      baseEjectionTime: ")
                .append(go(s.baseEjectionTimeNanos()))
                .append('\n');
        y.append("      maxEjectionPercent: ").append(s.maxEjectionPercent()).append('\n');
        if (s.failurePercentageThreshold() > 0) {
            y.append("      failurePercentageThreshold: ")
                    .append(s.failurePercentageThreshold())
                    .append('\n');
        }
        if (s.alwaysEjectOneHost()) {
            y.append("      alwaysEjectOneEndpoint: true\n");
        }
        return y.toString();
    }

    private static String kuma(Setting s, String name, double panic) {
        StringBuilder y = new StringBuilder();
        y.append("apiVersion: kuma.io/v1alpha1\nkind: MeshCircuitBreaker\nmetadata:\n  name: ")
                .append(kube(name))
                .append("\n  namespace: kuma-system\nspec:\n  targetRef:\n    kind: Mesh\n  to:\n  - targetRef:\n"
                        + "      kind: MeshService\n      name: ")
                .append(kube(name))
                .append("\n    default:\n      outlierDetection:\n        disabled: false\n");
        y.append("        interval: ").append(go(s.intervalNanos())).append('\n');
        y.append("        baseEjectionTime: ")
                .append(go(s.baseEjectionTimeNanos()))
                .append('\n');
        y.append("        maxEjectionPercent: ").append(s.maxEjectionPercent()).append('\n');
        if (panic != 50) {
            y.append("        healthyPanicThreshold: ").append(whole(panic)).append('\n');
        }
        boolean any = s.consecutive5xx() > 0 || s.successRateStdevFactor() > 0 || s.failurePercentageThreshold() > 0;
        if (any) {
            y.append("        detectors:\n");
        }
        if (s.consecutive5xx() > 0) {
            y.append("          totalFailures:\n            consecutive: ")
                    .append(s.consecutive5xx())
                    .append('\n');
        }
        if (s.successRateStdevFactor() > 0) {
            y.append("          successRate:\n            minimumHosts: ")
                    .append(s.successRateMinimumHosts())
                    .append("\n            requestVolume: ")
                    .append(s.successRateRequestVolume())
                    .append("\n            standardDeviationFactor: \"")
                    .append(Setting.factor(s.successRateStdevFactor()))
                    .append("\"\n");
        }
        if (s.failurePercentageThreshold() > 0) {
            y.append("          failurePercentage:\n            minimumHosts: ")
                    .append(s.failurePercentageMinimumHosts())
                    .append("\n            requestVolume: ")
                    .append(s.failurePercentageRequestVolume())
                    .append("\n            threshold: ")
                    .append(s.failurePercentageThreshold())
                    .append('\n');
        }
        return y.toString();
    }

    /** A Kubernetes object name from a cluster name: lower case, [a-z0-9-], at most 63 characters. */
    static String kube(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        n = n.isEmpty() ? "service" : n;
        return n.length() > 63 ? n.substring(0, 63).replaceAll("-+$", "") : n;
    }

    /** A Go duration in whole milliseconds or seconds, e.g. {@code 10s}, {@code 250ms}. */
    static String go(long nanos) {
        long ms = nanos / Durations.MILLISECOND;
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }

    private static String whole(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
