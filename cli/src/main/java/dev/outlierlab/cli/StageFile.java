package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.report.GatewayResultJson;
import dev.outlierlab.sim.gateway.GatewayObserver;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * {@code run --stages FILE}: runs a gateway scenario and writes each recorded stage as one JSON line (spec
 * gateway-profile section 6). Lines go to a temporary file beside FILE that replaces it only when the run
 * has finished, so a failed run leaves nothing partial.
 */
final class StageFile {
    private StageFile() {
    }

    static GatewayRunResult write(Path file, GatewayScenario scenario) {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp;
        try {
            tmp = Files.createTempFile(dir, ".stages", ".tmp");
        } catch (IOException e) {
            throw new InputException("--stages " + file + ": cannot write there (" + e.getMessage() + ")");
        }
        try {
            GatewayRunResult result;
            try (BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                result = GatewaySimulation.run(scenario, new GatewayObserver() {
                    @Override
                    public void onStage(long request, int process, long nowNanos, CandidateStage stage,
                            int[] candidates, int start, int count) {
                        if (stage.action() == StageAction.NONE) {
                            return;
                        }
                        try {
                            out.write(GatewayResultJson.stageLine(stage.record(nowNanos, request, process),
                                    scenario.endpoints()));
                            out.write('\n');
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                });
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            return result;
        } catch (IOException | UncheckedIOException e) {
            throw new InputException("--stages " + file + ": cannot write (" + e.getMessage() + ")");
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the temporary file was moved or could not be made; nothing else to clean
            }
        }
    }
}
