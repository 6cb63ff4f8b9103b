package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * grpc-java's outlier detection ({@code profile: grpc}): the lab's scenario (hosts, traffic, faults and the
 * {@code outlier_detection} gRPC's xDS client maps) with a {@code grpc:} block; no health checks.
 */
public final class GrpcScenarioFormat implements Profile, ScenarioFormat {
    public static final String NAME = "grpc";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 10;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(
                Capability.CLUSTER_FROM_CONFIG,
                Capability.COMPARISON_COLUMN,
                Capability.COMPARISON_BASE,
                Capability.SERVICE_CONFIG);
    }

    @Override
    public ScenarioReader.Profiled read(Located root) {
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        if (top.containsKey("health_checks")) {
            throw new InputException(top.get("health_checks").origin() + ": health_checks is Envoy's setting, but"
                    + " this scenario's profile is grpc: gRPC's outlier detection has no health-check return;"
                    + " remove it, or use profile: envoy");
        }
        ScenarioReader.Loaded loaded = ScenarioReader.readEnvoy(root);
        return new ScenarioReader.Profiled(
                Profiles.find(NAME).orElseThrow(),
                loaded,
                GrpcScenarioReader.read(
                        new Values(), root, top.get("grpc"), loaded.scenario().outlierDetection()));
    }
}
