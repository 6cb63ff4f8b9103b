package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.RunFormats;
import dev.outlierlab.report.format.RunFormats.RunView;
import java.util.List;

/**
 * A profile's facet in {@code run}: one scenario of the profile run and rendered. A profile without it runs on the
 * lab's Envoy report when it lists {@link Capability#ENVOY_REPORT}, and is refused
 * otherwise.
 */
public interface ProfileRunner {
    /**
     * Refuses the options this profile does not take, with one message that names them and the profile
     * ({@link InputException}); by default those its capabilities do not list.
     */
    default void refuse(RunRequest request, ScenarioReader.Profiled profiled) {
        request.refuseByCapabilities(profiled.profile());
    }

    /**
     * The formats this profile's run renders, named for a refusal as the run of a {@code profile} scenario: by
     * default text and JSON.
     */
    default Formats<RunView> formats(String profile) {
        return RunFormats.RUN.only("run of a profile: " + profile + " scenario", List.of("text", "json"));
    }

    /**
     * Runs the scenario (the input's overrides and cluster applied) and renders it in the request's format, checking the
     * work and showing progress through the request.
     */
    String run(ScenarioReader.Profiled resolved, RunRequest request);
}
