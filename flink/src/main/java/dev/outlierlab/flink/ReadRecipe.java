package dev.outlierlab.flink;

import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.cli.LogFormatOptions;
import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * How the job's workers read the logs, as plain values: the format's recipe and the rest of {@link ReadSettings}
 * ({@code replay}'s reorder window, cluster, instance per file, hosts, bounds), made into the same settings on
 * each worker ({@link #settings}).
 */
record ReadRecipe(LogFormatOptions.Recipe format, long reorderWindowNanos, String cluster, boolean instancePerFile,
                  List<String> hosts, int maxLineBytes, int maxNames) implements Serializable {
    static ReadRecipe of(LogFormatOptions.Recipe format, ReadSettings s) {
        return new ReadRecipe(format, s.reorderWindowNanos(), s.cluster(), s.instancePerFile(),
                s.hosts() == null ? null : List.copyOf(s.hosts()), s.maxLineBytes(), s.maxNames());
    }

    ReadSettings settings() {
        return new ReadSettings(format.compile(), reorderWindowNanos, cluster, instancePerFile,
                hosts == null ? null : new LinkedHashSet<>(hosts), maxLineBytes, maxNames);
    }
}
