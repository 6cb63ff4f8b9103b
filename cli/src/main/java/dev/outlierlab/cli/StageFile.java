package dev.outlierlab.cli;

import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.report.GatewayResultJson;
import dev.outlierlab.sim.gateway.GatewayObserver;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * {@code run --stages FILE}: runs a gateway scenario and writes each recorded stage as one JSON line (spec
 * gateway-profile section 6), through {@link OutputFiles}: a temporary file beside FILE that replaces it only
 * when the run has finished (a device is written in place), and a write error is a message naming the file.
 */
final class StageFile {
    private StageFile() {}

    static GatewayRunResult write(Path file, GatewayScenario scenario) {
        return OutputFiles.write(
                file,
                "--stages",
                out -> GatewaySimulation.run(scenario, new GatewayObserver() {
                    @Override
                    public void onStage(
                            long request,
                            int process,
                            long nowNanos,
                            CandidateStage stage,
                            int[] candidates,
                            int start,
                            int count) {
                        if (stage.action() == StageAction.NONE) {
                            return;
                        }
                        try {
                            out.write(GatewayResultJson.stageLine(
                                    stage.record(nowNanos, request, process), scenario.endpoints()));
                            out.write('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }));
    }
}
