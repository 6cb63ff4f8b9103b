package dev.outlierlab.tune;

import dev.outlierlab.config.scenario.GatewayScenarioFormat;
import dev.outlierlab.engine.profile.Profile;
import java.util.List;

/** The gateway profile in {@code tune}: its target, a gateway configuration. */
public final class GatewayTune implements Profile, TuneTargets {
    @Override
    public String name() {
        return GatewayScenarioFormat.NAME;
    }

    @Override
    public List<Target> targets() {
        return List.of(GatewayTuneTarget.INSTANCE);
    }
}
