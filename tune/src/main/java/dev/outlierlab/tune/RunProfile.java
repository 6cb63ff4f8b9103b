package dev.outlierlab.tune;

import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which simulation a suite run goes through, with which settings: Envoy's ({@link #ENVOY}, the scenario's own outlier
 * settings) or a profile's own, contributed with its {@link Target}. Each reduces its run to the same
 * {@link RunFigures}.
 */
public interface RunProfile {
    /** Envoy's simulation, with the scenario's outlier settings. */
    RunProfile ENVOY = new EnvoyRun();

    /** The work of the run in request-equivalents, for the progress bar and the work limit. */
    default long units(Scenario scenario) {
        return WorkEstimate.of(scenario).units();
    }

    /** Simulates {@code scenario} under this profile and reduces the run to its figures. */
    RunFigures figures(SuiteScenario suite, Scenario scenario);

    /** This profile with detection off, for the suite's baseline: by default Envoy's simulation with detection off. */
    default RunProfile off() {
        return ENVOY;
    }

    /** The callers one run of the profile has when none are given (one process per caller). */
    default int callers() {
        return 1;
    }

    /** The settings as a search candidate, or null where they are the Envoy fields of the request. */
    default Setting setting() {
        return null;
    }

    /** {@code scenario} (the Envoy fields of the written setting) as a lab scenario under this profile. */
    default Map<String, Object> labScenario(Scenario scenario) {
        return ScenarioWriter.toMap(scenario);
    }

    /**
     * {@code scenario} as a scenario of the profile named {@code name}: {@code profile: NAME} first, then its name,
     * duration, seed, hosts, traffic and faults, without Envoy's release, {@code outlier_detection} and
     * {@code health_checks} (which a profile of its own neither reads nor runs); the caller adds the profile's block.
     */
    static Map<String, Object> ofProfile(String name, Scenario scenario) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("profile", name);
        out.putAll(ScenarioWriter.toMap(scenario));
        out.remove("envoy_version");
        out.remove("outlier_detection");
        out.remove("health_checks");
        return out;
    }
}
