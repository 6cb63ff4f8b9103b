package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyClusterWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Envoy's outlier detection as {@code tune} writes it: an Envoy cluster (every field), an Istio DestinationRule
 * (istiod's {@code applyOutlierDetection}: consecutive errors, interval, ejection time and cap; success rate always
 * off), an Envoy Gateway BackendTrafficPolicy ({@code buildXdsOutlierDetection}: its passive fields; success rate
 * always on at Envoy's defaults), or a Kuma MeshCircuitBreaker ({@code configureOutlierDetection}: its detectors, no
 * always-eject-one). Each is read back with {@code check}'s reader for that format and runs on Envoy's simulation.
 */
public enum EnvoyTarget implements Target {
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
                    Can.ALWAYS_EJECT_ONE,
                    Can.CAP,
                    Can.HEALTH_CHECK_RETURN,
                    Can.HEALTH_CHECK_ORACLE),
            Set.of(FixStyle.ENVOY)),
    ISTIO(
            "istio",
            "an Istio DestinationRule",
            EnumSet.of(Can.ENVOY_FIELDS, Can.CONSECUTIVE, Can.TURN_OFF_CONSECUTIVE, Can.CAP, Can.HEALTH_CHECK_ORACLE),
            Set.of(FixStyle.ISTIO, FixStyle.FLAGGER)),
    ENVOY_GATEWAY(
            "envoy-gateway",
            "an Envoy Gateway BackendTrafficPolicy",
            EnumSet.of(
                    Can.ENVOY_FIELDS,
                    Can.CONSECUTIVE,
                    Can.FAILURE_PERCENTAGE,
                    Can.ALWAYS_EJECT_ONE,
                    Can.CAP,
                    Can.HEALTH_CHECK_ORACLE),
            Set.of(FixStyle.ENVOY_GATEWAY)),
    KUMA(
            "kuma",
            "a Kuma MeshCircuitBreaker",
            EnumSet.of(
                    Can.ENVOY_FIELDS,
                    Can.CONSECUTIVE,
                    Can.TURN_OFF_CONSECUTIVE,
                    Can.SUCCESS_RATE,
                    Can.FAILURE_PERCENTAGE,
                    Can.FAILURE_PERCENTAGE_VOLUME,
                    Can.CAP,
                    Can.HEALTH_CHECK_ORACLE),
            Set.of(FixStyle.KUMA));

    /** Envoy Gateway's success rate: Envoy's defaults, always enforced (the policy has no field for it). */
    static final long ENVOY_DEFAULT_SR_FACTOR = 1900;

    static final long ENVOY_DEFAULT_SR_VOLUME = 100;
    static final long ENVOY_DEFAULT_SR_HOSTS = 5;

    private final String flag;
    private final String description;
    private final Set<Can> can;
    private final Set<FixStyle> styles;

    EnvoyTarget(String flag, String description, Set<Can> can, Set<FixStyle> styles) {
        this.flag = flag;
        this.description = description;
        this.can = Set.copyOf(can);
        this.styles = Set.copyOf(styles);
    }

    @Override
    public String flag() {
        return flag;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public Set<Can> can() {
        return can;
    }

    @Override
    public FixStyle fixStyle() {
        return switch (this) {
            case ISTIO -> FixStyle.ISTIO;
            case ENVOY_GATEWAY -> FixStyle.ENVOY_GATEWAY;
            case KUMA -> FixStyle.KUMA;
            default -> FixStyle.ENVOY;
        };
    }

    @Override
    public boolean tunes(FixStyle style) {
        return styles.contains(style);
    }

    /** Istio's defaults carry no panic threshold (istiod sends 0); the others Envoy's 50 %. */
    @Override
    public double defaultPanicPercent() {
        return this == ISTIO ? 0 : 50;
    }

    /** Envoy's defaults for an Envoy cluster; for the control planes, as written in their resource and read back. */
    @Override
    public CurrentSettings defaults(String name, int hosts) {
        return this == ENVOY ? CurrentSettings.defaults(name) : Target.super.defaults(name, hosts);
    }

    /** Another Envoy target's settings, the same fields (the file is rewritten in this target's format). */
    @Override
    public CurrentSettings adopt(CurrentSettings c, List<String> notes) {
        if (!c.target().can(Can.ENVOY_FIELDS)) {
            return null;
        }
        return new CurrentSettings(
                c.name(),
                c.source(),
                this,
                c.config(),
                c.panicThresholdPercent(),
                c.hosts(),
                c.rps(),
                c.version(),
                c.profile(),
                c.healthChecks());
    }

    /** Istio's DestinationRule and Envoy Gateway's policy cannot choose success rate: what they run instead. */
    @Override
    public long[] fixedSuccessRate() {
        return this == ENVOY_GATEWAY
                ? new long[] {ENVOY_DEFAULT_SR_FACTOR, ENVOY_DEFAULT_SR_VOLUME, ENVOY_DEFAULT_SR_HOSTS}
                : Target.super.fixedSuccessRate();
    }

    @Override
    public DeployableFile.Spliced splice(
            String original,
            OutlierDetectionConfig currentConfig,
            Setting recommended,
            Written written,
            EnvoyVersion version,
            String cluster) {
        if (this != ENVOY && this != ISTIO) {
            return Target.super.splice(original, currentConfig, recommended, written, version, cluster);
        }
        return DeployableFile.of(original, this, currentConfig, recommended, written, version, cluster);
    }

    /**
     * A candidate's short label in the resource's field names: an Envoy cluster's is {@link Setting#label()}; a
     * DestinationRule's {@code consecutive5xxErrors=5 interval=10s baseEjectionTime=30s maxEjectionPercent=10}; a
     * BackendTrafficPolicy's and a MeshCircuitBreaker's likewise (Kuma's detectors by name, {@code off} when absent,
     * {@code successRate=1.9/100} its factor over its request volume, {@code failurePercentage=30/50} its threshold
     * over its volume).
     */
    @Override
    public String label(Setting s) {
        String times = " interval=" + SettingFields.go(s.intervalNanos()) + " baseEjectionTime="
                + SettingFields.go(s.baseEjectionTimeNanos()) + " maxEjectionPercent=" + s.maxEjectionPercent();
        return switch (this) {
            case ENVOY -> s.label();
            case ISTIO -> "consecutive5xxErrors=" + s.consecutive5xx() + times;
            case ENVOY_GATEWAY ->
                "consecutive5XxErrors=" + Math.max(1, s.consecutive5xx())
                        + (s.failurePercentageThreshold() > 0
                                ? " failurePercentageThreshold=" + s.failurePercentageThreshold()
                                : "")
                        + times + (s.alwaysEjectOneHost() ? " alwaysEjectOneEndpoint" : "");
            case KUMA ->
                "totalFailures=" + (s.consecutive5xx() > 0 ? Long.toString(s.consecutive5xx()) : "off")
                        + " successRate="
                        + (s.successRateStdevFactor() > 0
                                ? Setting.factor(s.successRateStdevFactor()) + "/" + s.successRateRequestVolume()
                                : "off")
                        + " failurePercentage="
                        + (s.failurePercentageThreshold() > 0
                                ? s.failurePercentageThreshold() + "/" + s.failurePercentageRequestVolume()
                                : "off")
                        + times;
        };
    }

    /**
     * {@link #label(Setting)} on {@code hosts} hosts: Envoy's and Kuma's success rate and failure percentage off where
     * the cluster has fewer hosts than their minimum ({@code sr=off (4 hosts < min 5)}, {@code successRate=off (4
     * hosts < minimumHosts 5)}); Istio's and Envoy Gateway's labels name no such detector.
     */
    @Override
    public String label(Setting s, RunProfile profile, int hosts) {
        return switch (this) {
            case ENVOY -> s.label(hosts);
            case KUMA -> {
                String label = label(s);
                if (s.successRateStdevFactor() > 0 && hosts < s.successRateMinimumHosts()) {
                    label = label.replace(
                            " successRate=" + Setting.factor(s.successRateStdevFactor()) + "/"
                                    + s.successRateRequestVolume(),
                            " successRate=off " + Setting.tooFew(hosts, s.successRateMinimumHosts()));
                }
                if (s.failurePercentageThreshold() > 0 && hosts < s.failurePercentageMinimumHosts()) {
                    label = label.replace(
                            " failurePercentage=" + s.failurePercentageThreshold() + "/"
                                    + s.failurePercentageRequestVolume(),
                            " failurePercentage=off " + Setting.tooFew(hosts, s.failurePercentageMinimumHosts()));
                }
                yield label.replace("< min ", "< minimumHosts ");
            }
            default -> label(s, profile);
        };
    }

    /** The block the target's resource holds, in its own field names ({@link SettingFields}). */
    @Override
    public Map<String, Object> fields(Setting s, Written written) {
        return switch (this) {
            case ENVOY -> SettingFields.envoy(s);
            case ISTIO -> SettingFields.istio(s, written.panicThresholdPercent());
            case ENVOY_GATEWAY -> SettingFields.envoyGateway(s);
            case KUMA -> SettingFields.kuma(s, written.panicThresholdPercent());
        };
    }

    @Override
    public String patchHeading() {
        return this == ISTIO ? "Or as a patch:\n" : Target.super.patchHeading();
    }

    @Override
    public Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current,
            EnvoyVersion version) {
        String text = switch (this) {
            case ENVOY ->
                EnvoyClusterWriter.toYaml(Scenario.builder()
                        .name(name)
                        .durationNanos(Durations.SECOND)
                        .seed(1)
                        .cluster(ClusterSpec.ofCount(hosts, panicThresholdPercent))
                        .traffic(new TrafficSpec(1))
                        .outlierDetection(s.applyTo(base, version))
                        .envoyVersion(version)
                        .build());
            case ISTIO -> istio(s, name, panicThresholdPercent);
            case ENVOY_GATEWAY -> envoyGateway(s, name, panicThresholdPercent);
            case KUMA -> kuma(s, name, panicThresholdPercent);
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
        SettingFields.yaml(y, SettingFields.istio(s, panic), "      ");
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
        SettingFields.yaml(y, SettingFields.envoyGateway(s), "      ");
        return y.toString();
    }

    private static String kuma(Setting s, String name, double panic) {
        StringBuilder y = new StringBuilder();
        y.append("apiVersion: kuma.io/v1alpha1\nkind: MeshCircuitBreaker\nmetadata:\n  name: ")
                .append(kube(name))
                .append("\n  namespace: kuma-system\nspec:\n  targetRef:\n    kind: Mesh\n  to:\n  - targetRef:\n"
                        + "      kind: MeshService\n      name: ")
                .append(kube(name))
                .append("\n    default:\n      outlierDetection:\n");
        SettingFields.yaml(y, SettingFields.kuma(s, panic), "        ");
        return y.toString();
    }

    /** A Kubernetes object name from a cluster name: lower case, [a-z0-9-], at most 63 characters. */
    static String kube(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        n = n.isEmpty() ? "service" : n;
        return n.length() > 63 ? n.substring(0, 63).replaceAll("-+$", "") : n;
    }

    private static String whole(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
