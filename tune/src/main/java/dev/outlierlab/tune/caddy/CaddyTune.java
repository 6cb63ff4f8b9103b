package dev.outlierlab.tune.caddy;

import dev.outlierlab.config.caddy.CaddyScenarioFormat;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneTargets;
import java.util.List;

/** The Caddy profile in {@code tune}: its target, a Caddyfile reverse_proxy. */
public final class CaddyTune implements Profile, TuneTargets {
    @Override
    public String name() {
        return CaddyScenarioFormat.NAME;
    }

    @Override
    public List<Target> targets() {
        return List.of(CaddyTuneTarget.INSTANCE);
    }
}
