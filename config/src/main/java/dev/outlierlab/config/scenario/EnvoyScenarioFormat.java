package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** Envoy's outlier detection ({@code profile: envoy}, the default): its scenario documents and what it can do. */
public final class EnvoyScenarioFormat implements Profile, ScenarioFormat {
    /** The default profile's name. */
    public static final String NAME = "envoy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(
                Capability.ENVOY_REPORT,
                Capability.TRACE_REPLAY,
                Capability.ACCESS_LOG,
                Capability.EVENT_LOG,
                Capability.ADMIN_STATS,
                Capability.SIGNAL_SERIES,
                Capability.DECISION_CSV,
                Capability.CLUSTER_FROM_CONFIG,
                Capability.HEALTH_CHECKS,
                Capability.COMPARISON_COLUMN,
                Capability.COMPARISON_BASE);
    }

    @Override
    public ScenarioReader.Profiled read(Located root) {
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        if (top.containsKey("grpc")) {
            throw new InputException(top.get("grpc").origin() + ": grpc is the gRPC profile's setting, but this"
                    + " scenario's profile is envoy; add profile: grpc to use it, or remove it");
        }
        return new ScenarioReader.Profiled(Profiles.find(NAME).orElseThrow(), ScenarioReader.readEnvoy(root), null);
    }
}
