package dev.outlierlab.report;

import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.RunProfile;

/**
 * A profile's facet in {@code tune --explain}: the decision trace of the recommendation's run, for the simulations
 * its targets run ({@link RunProfile}).
 */
public interface TuneTrace {
    /** The trace of {@code scenario} run under {@code profile}, at most {@code events} decisions; null when not ours. */
    String trace(RunProfile profile, Scenario scenario, int events);

    /** The trace from the profile that owns {@code profile}'s simulation. */
    static String of(RunProfile profile, Scenario scenario, int events) {
        for (Profiles.Registered p : Profiles.withFacet(TuneTrace.class)) {
            String t = p.facet(TuneTrace.class).orElseThrow().trace(profile, scenario, events);
            if (t != null) {
                return t;
            }
        }
        throw new IllegalStateException("no profile traces " + profile);
    }
}
