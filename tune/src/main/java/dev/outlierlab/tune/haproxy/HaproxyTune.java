package dev.outlierlab.tune.haproxy;

import dev.outlierlab.config.haproxy.HaproxyScenarioFormat;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneTargets;
import java.util.List;

/** The HAProxy profile in {@code tune}: its target, a haproxy.cfg backend. */
public final class HaproxyTune implements Profile, TuneTargets {
    @Override
    public String name() {
        return HaproxyScenarioFormat.NAME;
    }

    @Override
    public List<Target> targets() {
        return List.of(HaproxyTuneTarget.INSTANCE);
    }
}
