package dev.outlierlab.cli;

import dev.outlierlab.report.EnvoyStats;
import dev.outlierlab.sim.RunResult;
import picocli.CommandLine.Option;

/** {@code run --stats FORMAT}: only the final outlier detection statistics, as Envoy's admin interface prints them. */
public final class StatsOption {
    /** Envoy admin formats for {@code --stats}. */
    enum StatsFormat {
        text,
        prometheus
    }

    @Option(
            names = "--stats",
            paramLabel = "FORMAT",
            description = "Print only the final cluster.NAME.outlier_detection.* statistics as Envoy's admin interface"
                    + " does: text (/stats) or prometheus (/stats/prometheus).")
    StatsFormat stats;

    /** Whether {@code --stats} was given. */
    boolean isUsed() {
        return stats != null;
    }

    /** The run's statistics in the format given, the cluster named as the scenario. */
    String render(RunResult result) {
        String cluster = result.scenario().name();
        return stats == StatsFormat.text
                ? EnvoyStats.text(result.stats(), cluster)
                : EnvoyStats.prometheus(result.stats(), cluster);
    }
}
