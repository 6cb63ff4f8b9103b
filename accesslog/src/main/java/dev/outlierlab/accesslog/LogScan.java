package dev.outlierlab.accesslog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The first pass over the logs: which detectors there are (cluster and instance), each one's hosts in order of
 * first appearance and its time span, the earliest outcome (the replay's time zero), and every bad or skipped
 * line. Its memory is the names and the reorder window, not the log.
 */
public final class LogScan {
    private LogScan() {
    }

    /** What the first pass found. */
    public record Result(List<ReplayGroup> groups, long originEpochNanos, BadLines lines) {
    }

    public static Result scan(List<LogInput> inputs, ReadSettings settings, LongConsumer progress) {
        BadLines bad = new BadLines();
        Map<String, Building> groups = new LinkedHashMap<>();
        long origin = Long.MIN_VALUE;
        try (MergedLog log = new MergedLog(inputs, settings, bad, progress)) {
            for (LogEntry e = log.next(); e != null; e = log.next()) {
                if (origin == Long.MIN_VALUE) {
                    origin = e.endEpochNanos();
                }
                LogEntry entry = e;
                Building g = groups.computeIfAbsent(key(e),
                        k -> new Building(entry.cluster(), entry.instance(), entry.endEpochNanos()));
                g.hosts.add(e.host());
                g.last = e.endEpochNanos();
                g.entries++;
            }
        }
        List<ReplayGroup> out = new ArrayList<>();
        for (Building b : groups.values()) {
            out.add(new ReplayGroup(b.cluster, b.instance, new ArrayList<>(b.hosts), b.first, b.last, b.entries));
        }
        return new Result(out, origin, bad);
    }

    static String key(LogEntry e) {
        return e.cluster() + '\u0000' + e.instance();
    }

    private static final class Building {
        final String cluster;
        final String instance;
        final long first;
        final Set<String> hosts = new LinkedHashSet<>();
        long last;
        long entries;

        Building(String cluster, String instance, long first) {
            this.cluster = cluster;
            this.instance = instance;
            this.first = first;
        }
    }
}
