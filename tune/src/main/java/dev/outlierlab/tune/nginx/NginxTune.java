package dev.outlierlab.tune.nginx;

import dev.outlierlab.config.nginx.NginxScenarioFormat;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneTargets;
import java.util.List;

/** The nginx profile in {@code tune}: its target, an nginx configuration's upstream. */
public final class NginxTune implements Profile, TuneTargets {
    @Override
    public String name() {
        return NginxScenarioFormat.NAME;
    }

    @Override
    public List<Target> targets() {
        return List.of(NginxTuneTarget.INSTANCE);
    }
}
