package dev.outlierlab.config.scenario;

import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The gateway profile ({@code profile: gateway}): the lab model's hosts, traffic and faults with the {@code gateway:}
 * and {@code routing:} sections, one process per caller.
 */
public final class GatewayScenarioFormat implements Profile, ScenarioFormat {
    public static final String NAME = "gateway";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 20;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.STAGE_RECORDS, Capability.COMPARISON_COLUMN);
    }

    @Override
    public ScenarioReader.Profiled read(Located root) {
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        return new ScenarioReader.Profiled(
                Profiles.find(NAME).orElseThrow(), null, GatewayScenarioReader.build(root, new Values(), top));
    }

    @Override
    public String takenBy() {
        return "run and sweep";
    }
}
