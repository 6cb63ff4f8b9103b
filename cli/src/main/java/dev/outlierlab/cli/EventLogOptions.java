package dev.outlierlab.cli;

import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.config.InputException;
import dev.outlierlab.report.eventlog.ComparedEventLog;
import dev.outlierlab.report.eventlog.EventLogComparison;
import dev.outlierlab.report.eventlog.EventLogReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code replay --event-log FILE}: Envoy's own outlier event log ({@code event_log_path}, plain or gzip) compared
 * with what the lab decides replaying the access log. Envoy's event log has no proxy field (each Envoy writes its
 * own), so it is compared only when the replay has one proxy instance. Each detector (one per upstream cluster)
 * is compared with the events whose {@code cluster_name} is its cluster: the cluster the access log names, else
 * {@code --cluster NAME}, else the cluster taken from {@code --envoy}, else the event log's only cluster.
 */
public final class EventLogOptions {
    @Option(
            names = "--event-log",
            paramLabel = "FILE",
            description = "Envoy's outlier event log (event_log_path) of the proxy that wrote the log: which of its"
                    + " ejections and returns the lab reproduces, misses, or adds.")
    String file;

    /** Whether an event log was given. */
    public boolean isUsed() {
        return file != null;
    }

    /** Reads the event log; an unreadable file is one message, exit 2. */
    public EventLogReader.EventLog read(List<String> logs, InputStream stdin) {
        if ("-".equals(file) && logs.contains("-")) {
            throw new InputException(
                    "--event-log -: standard input is already the access log; give the event log as a file");
        }
        if (Files.isDirectory(Path.of(file))) {
            throw new InputException("--event-log " + file + ": is a directory, expected Envoy's outlier event log");
        }
        LogInput input = LogInput.of(file, stdin);
        EventLogReader.EventLog log;
        try (InputStream in = input.open(new long[1])) {
            log = EventLogReader.read(in, file);
        } catch (IOException e) {
            throw new InputException(file + ": cannot be read (" + e.getMessage() + ")");
        }
        if (log.lines() > 0 && log.events().isEmpty()) {
            EventLogReader.Bad first = log.firstBad().get(0);
            throw new InputException("--event-log " + file + ": none of its " + log.lines() + " lines is an outlier "
                    + "event (line " + first.line() + ": " + first.why() + "); expected Envoy's event_log_path output, "
                    + "one JSON OutlierDetectionEvent per line");
        }
        return log;
    }

    /**
     * Compares each detector's decisions with the log.
     *
     * @param logCluster        {@code --cluster}, or null
     * @param envoyClusterName  the cluster taken from {@code --envoy}, or null
     */
    public ComparedEventLog compare(
            EventLogReader.EventLog log,
            List<LogReplay.GroupResult> results,
            long originEpochNanos,
            String logCluster,
            String envoyClusterName) {
        Set<String> instances = new LinkedHashSet<>();
        results.forEach(g -> instances.add(g.group().instance()));
        if (instances.size() > 1) {
            throw new InputException("--event-log " + file + ": the replay has " + instances.size()
                    + " proxy instances ("
                    + String.join(", ", instances.stream().limit(5).toList()) + (instances.size() > 5 ? ", ..." : "")
                    + ") but Envoy's event log has no instance field (each Envoy writes its own): replay the access log "
                    + "of the proxy that wrote this event log alone (--one-instance when several files are its rotated "
                    + "logs)");
        }
        List<String> clusters = new ArrayList<>();
        List<EventLogComparison.Result> out = new ArrayList<>();
        for (LogReplay.GroupResult g : results) {
            String cluster = clusterOf(g, log, logCluster, envoyClusterName);
            clusters.add(cluster);
            out.add(EventLogComparison.compare(
                    cluster,
                    log.of(cluster),
                    g.result().run().events(),
                    originEpochNanos,
                    g.scenario().durationNanos(),
                    g.scenario().outlierDetection().intervalNanos()));
        }
        return new ComparedEventLog(log, clusters, out);
    }

    private String clusterOf(
            LogReplay.GroupResult g, EventLogReader.EventLog log, String logCluster, String envoyClusterName) {
        if (!g.group().cluster().isEmpty()) {
            return g.group().cluster();
        }
        if (logCluster != null) {
            return logCluster;
        }
        if (envoyClusterName != null) {
            return envoyClusterName;
        }
        if (log.clusters().size() > 1) {
            throw new InputException("--event-log " + file + ": the event log has events of "
                    + log.clusters().size()
                    + " clusters ("
                    + String.join(
                            ", ", log.clusters().keySet().stream().limit(5).toList())
                    + (log.clusters().size() > 5 ? ", ..." : "") + ") and the access log does not name its cluster: "
                    + "choose one with --cluster NAME");
        }
        return log.clusters().isEmpty()
                ? ""
                : log.clusters().keySet().iterator().next();
    }
}
