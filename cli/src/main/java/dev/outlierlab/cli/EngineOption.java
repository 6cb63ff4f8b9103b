package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --engine local|flink} and {@code --parallelism N} of {@code replay}, {@code sweep} and {@code tune}: the
 * command's work in this process, or as a Flink job (the flink module's, in a JVM of its own: {@link FlinkLauncher}).
 */
public final class EngineOption {
    /** Where a command's work runs. */
    public enum Engine {
        local,
        flink
    }

    @Option(
            names = "--engine",
            paramLabel = "ENGINE",
            defaultValue = "local",
            description = "local (default): run in this process; flink: run the work as the flink module's Flink job on"
                    + " Flink's local MiniCluster (the same result; see docs/flink.md).")
    Engine engine;

    @Option(
            names = "--parallelism",
            paramLabel = "N",
            description = "--engine flink: the job's parallelism (default: the machine's cores).")
    Integer parallelism;

    /** Whether {@code --engine flink} was given. */
    boolean isFlink() {
        return engine == Engine.flink;
    }

    /** {@code --parallelism N}, or null. */
    Integer parallelism() {
        return parallelism;
    }

    /**
     * Refuses {@code --parallelism} without {@code --engine flink}; with it, and no job attached to this command
     * ({@code attached}), starts the job's JVM and returns its exit status, else null (the work runs here, or in the
     * attached job).
     */
    Integer launch(CommandSpec spec, boolean attached) {
        if (isFlink() && !attached) {
            return FlinkLauncher.run(spec);
        }
        if (!isFlink() && parallelism != null) {
            throw new InputException("--parallelism " + parallelism + ": only with --engine flink");
        }
        return null;
    }
}
