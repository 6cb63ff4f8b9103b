package dev.outlierlab.sim.grpc;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.grpc.GrpcDetector;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.GrpcStats;
import dev.outlierlab.sim.ContractDetector;
import dev.outlierlab.sim.DetectorSimulation;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunTotals;
import dev.outlierlab.sim.scenario.Scenario;

/**
 * The gRPC profile for the simulator: a {@link GrpcDetector} per run over the scenario's hosts, with sweeps up to
 * and including the duration and enforcement draws from the scenario's seed, run by {@link DetectorSimulation}.
 */
public final class GrpcProfile implements ContractDetector {
    private final GrpcOutlierConfig config;

    public GrpcProfile(GrpcOutlierConfig config) {
        this.config = config;
    }

    public GrpcOutlierConfig config() {
        return config;
    }

    /** Runs {@code scenario}'s traffic under this gRPC configuration. */
    public RunResult run(Scenario scenario, RunOptions options) {
        return DetectorSimulation.run(scenario, options, this);
    }

    @Override
    public Detector create(Scenario scenario, DetectorListener events) {
        return new GrpcDetector(
                config,
                scenario.cluster().hosts(),
                new SeededRandom(scenario.seed()),
                events,
                scenario.durationNanos());
    }

    @Override
    public RunTotals totals(Detector detector) {
        GrpcStats stats = ((GrpcDetector) detector).stats();
        return new RunTotals(stats.detectedTotal(), stats.enforcedTotal(), stats.overflow(), stats.asMap());
    }
}
