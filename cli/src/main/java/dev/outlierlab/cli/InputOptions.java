package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.sim.scenario.ClusterSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The input of every command that simulates a cluster ({@code run}, {@code sweep}, {@code export}, {@code tune}),
 * one set of options so that they all take the same: a scenario (a file, {@code -}, {@code --example}) with its
 * {@code --set}, {@code --hosts}, {@code --rps} and {@code --clients} overrides; the cluster from real configuration
 * ({@code --envoy FILE}, {@code --istio FILE --hosts N}, {@link ClusterSourceOptions}); and gRPC's settings from a
 * service config ({@code --service-config FILE}, {@code --grpc-implementation}, read as grpc-java's
 * {@code OutlierDetectionLoadBalancerProvider.parseLoadBalancingPolicyConfig} reads them).
 */
public final class InputOptions {
    @Mixin
    ScenarioOptions scenario;

    @Mixin
    ClusterSourceOptions clusterSource;

    @Option(
            names = "--service-config",
            paramLabel = "FILE",
            description = "profile grpc: take gRPC's settings from a service config (JSON: loadBalancingConfig with"
                    + " outlier_detection_experimental and its childPolicy) instead of the scenario.")
    Path serviceConfig;

    @Option(
            names = "--grpc-implementation",
            paramLabel = "NAME",
            description = "profile grpc: java (default, exact), go or core (read from source), see docs/grpc.md.")
    String grpcImplementation;

    /** Whether gRPC's settings are given ({@code --service-config} or {@code --grpc-implementation}). */
    boolean givesGrpcSettings() {
        return serviceConfig != null || grpcImplementation != null;
    }

    /**
     * Whether the input describes a cluster beyond plain figures: a scenario file or example, a {@code --set}, a
     * configuration file or gRPC settings. {@code --hosts}, {@code --rps}, {@code --clients} and
     * {@code --envoy-version} alone do not.
     */
    boolean describesCluster() {
        return scenario.scenarioFile != null
                || scenario.example != null
                || !scenario.sets.isEmpty()
                || clusterSource.isUsed()
                || givesGrpcSettings();
    }

    /** {@code --hosts N}, as given, or null. */
    Integer hosts() {
        return clusterSource.hosts;
    }

    /** {@code --rps R}, as given, or null. */
    Long rps() {
        return scenario.rps;
    }

    /** {@code --clients P}, as given, or null. */
    Integer clients() {
        return scenario.clients;
    }

    /** {@code --envoy-version X.Y}, as given, or null. */
    String envoyVersion() {
        return scenario.envoyVersion;
    }

    /**
     * Every override in the order it applies: {@code --hosts} as {@code cluster.hosts} (when no configuration file
     * takes it), {@code --rps} and {@code --clients} as their traffic keys, then the {@code --set}s, so a --set wins.
     */
    List<String> allSets() {
        List<String> all = new ArrayList<>();
        Integer hosts = clusterSource.hosts;
        if (hosts != null && !clusterSource.hasConfig()) {
            if (hosts < 1 || hosts > ClusterSpec.MAX_HOSTS) {
                throw new InputException("--hosts: " + hosts + " is not allowed; expected " + OptionRanges.HOSTS);
            }
            all.add("cluster.hosts=" + hosts);
        }
        all.addAll(scenario.allSets());
        return all;
    }

    /** The scenario of either profile with every override, before a configuration file's cluster applies. */
    ScenarioReader.Profiled loadProfiled() {
        return scenario.source().loadProfiled(clusterSource.scenarioSets(allSets()));
    }

    /** The Envoy scenario with the configuration file's cluster (if any) and the overrides applied over it. */
    ScenarioReader.Loaded applyCluster(ScenarioReader.Profiled profiled) {
        return applyCluster(profiled, allSets());
    }

    private ScenarioReader.Loaded applyCluster(ScenarioReader.Profiled profiled, List<String> sets) {
        return clusterSource.apply(profiled.envoy(), sets, true);
    }

    /** gRPC's settings for this input, for a scenario whose cluster is already applied ({@link ProfileRun}). */
    GrpcSettings grpcSettings(ScenarioReader.Profiled profiled, ScenarioReader.Loaded loaded) {
        return ProfileRun.settings(profiled, loaded, serviceConfig, grpcImplementation, clusterSource.envoyClusterName);
    }

    /**
     * One run's whole input with these overrides (from {@link #allSets}, plus what a sweep varies): the scenario of
     * either profile, the configuration's cluster applied, and under gRPC (a {@code profile: grpc} scenario or gRPC
     * settings given) the settings it runs with.
     */
    ScenarioReader.Profiled resolve(List<String> sets) {
        ScenarioReader.Profiled profiled = scenario.source().loadProfiled(clusterSource.scenarioSets(sets));
        if (!profiled.profile().capabilities().contains(Capability.CLUSTER_FROM_CONFIG)) {
            if (clusterSource.isUsed() || givesGrpcSettings()) {
                throw new InputException("--envoy, --istio, --service-config and --grpc-implementation take "
                        + Profiles.orList(Profiles.all().stream()
                                .filter(p -> p.can(Capability.CLUSTER_FROM_CONFIG))
                                .map(p -> "profile: " + p.name())
                                .toList())
                        + " scenarios; this scenario's profile is " + profiled.name());
            }
            return profiled;
        }
        ScenarioReader.Loaded loaded = applyCluster(profiled, sets);
        GrpcSettings grpc = profiled.grpc() != null || givesGrpcSettings() ? grpcSettings(profiled, loaded) : null;
        return grpc == null
                ? profiled.withEnvoy(loaded)
                : new ScenarioReader.Profiled(ProfileRun.serviceConfigProfile(), loaded, grpc);
    }

    /** {@link #resolve} with this input's own overrides. */
    ScenarioReader.Profiled resolve() {
        return resolve(allSets());
    }
}
