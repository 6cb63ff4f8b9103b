package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The one pass over the logs: which detectors there are (cluster and proxy instance), each one's hosts in order
 * of first appearance and its time span, the earliest outcome (the replay's time zero), and every bad or skipped
 * line; the outcomes themselves go, in time order, to a binary spool that {@link LogReplay} replays once the
 * hosts and the span are known. Memory holds the names and the reorder window, never the log.
 */
public final class LogScan {
    private LogScan() {}

    /** What the pass found; close it to delete the spooled outcomes. */
    public static final class Result implements AutoCloseable {
        private final List<ReplayGroup> groups;
        private final long originEpochNanos;
        private final BadLines lines;
        final OutcomeSpool spool;

        Result(List<ReplayGroup> groups, long originEpochNanos, BadLines lines, OutcomeSpool spool) {
            this.groups = List.copyOf(groups);
            this.originEpochNanos = originEpochNanos;
            this.lines = lines;
            this.spool = spool;
        }

        public List<ReplayGroup> groups() {
            return groups;
        }

        /** The earliest outcome's time: the replay's time zero. */
        public long originEpochNanos() {
            return originEpochNanos;
        }

        public BadLines lines() {
            return lines;
        }

        @Override
        public void close() {
            spool.close();
        }
    }

    /** Detectors (cluster and proxy instance) one scan may hold: each is a replay of its own. */
    public static final int MAX_GROUPS = 1_000;

    public static Result scan(List<LogInput> inputs, ReadSettings settings, LongConsumer progress) {
        return scan(inputs, settings, progress, Long.MAX_VALUE);
    }

    /**
     * As {@link #scan(List, ReadSettings, LongConsumer)}, stopping with {@link BadLines.LimitReached} as soon as
     * more than {@code maxBadLines} lines are bad (so /dev/urandom ends), and refusing more than
     * {@link #MAX_GROUPS} detectors.
     */
    public static Result scan(List<LogInput> inputs, ReadSettings settings, LongConsumer progress, long maxBadLines) {
        return scan(inputs, settings, progress, maxBadLines, false);
    }

    /**
     * Refuses the entry of a new (cluster, proxy instance) once {@link #MAX_GROUPS} are known: every reader of a
     * log keeps a little state per detector, and a log of a hundred thousand instances would not fit.
     */
    static void refuseBeyondMaxGroups(Map<String, ?> groups, LogEntry e) {
        if (groups.size() >= MAX_GROUPS && !groups.containsKey(key(e))) {
            throw new InputException("line " + e.line() + ": more than "
                    + String.format(Locale.ROOT, "%,d", MAX_GROUPS) + " detectors (one per cluster "
                    + "and proxy instance); replay one cluster with --cluster NAME, or one instance's log");
        }
    }

    /**
     * As {@link #scan(List, ReadSettings, LongConsumer, long)}; with {@code stopWhenMostlyBad} (for a share of bad
     * lines allowed, which only the whole read can settle) also stopping as soon as
     * {@value BadLines#MOSTLY_BAD_MIN_LINES} lines or more are read and more than half of them are bad.
     */
    public static Result scan(
            List<LogInput> inputs,
            ReadSettings settings,
            LongConsumer progress,
            long maxBadLines,
            boolean stopWhenMostlyBad) {
        BadLines bad = BadLines.limitedTo(maxBadLines, stopWhenMostlyBad);
        Map<String, Building> groups = new LinkedHashMap<>();
        long origin = Long.MIN_VALUE;
        OutcomeSpool spool = new OutcomeSpool();
        Building g = null;
        try (MergedLog log = new MergedLog(inputs, settings, bad, progress)) {
            for (LogEntry e = log.next(); e != null; e = log.next()) {
                if (origin == Long.MIN_VALUE) {
                    origin = e.endEpochNanos();
                }
                if (g == null || g.cluster != e.cluster() || g.instance != e.instance()) {
                    LogEntry entry = e;
                    int index = groups.size();
                    refuseBeyondMaxGroups(groups, e);
                    g = groups.computeIfAbsent(
                            key(e), k -> new Building(index, entry.cluster(), entry.instance(), entry.endEpochNanos()));
                }
                g.last = e.endEpochNanos();
                g.entries++;
                spool.write(
                        e.endEpochNanos(), g.index, g.host(e.hostName(), e.host()), e.code(), e.outcome(), e.line());
                log.recycle(e);
            }
        } catch (RuntimeException ex) {
            spool.close();
            throw ex;
        }
        List<ReplayGroup> out = new ArrayList<>();
        for (Building b : groups.values()) {
            out.add(new ReplayGroup(b.cluster, b.instance, b.hosts, b.first, b.last, b.entries));
        }
        return new Result(out, origin, bad, spool);
    }

    static String key(LogEntry e) {
        return e.cluster() + '\u0000' + e.instance();
    }

    private static final class Building {
        final int index;
        final String cluster;
        final String instance;
        final long first;
        final List<String> hosts = new ArrayList<>();
        /** By the name's number ({@link LogEntry#hostName()}), the host's index in {@link #hosts} plus one (0: none yet). */
        int[] hostIndex = new int[64];

        long last;
        long entries;

        Building(int index, String cluster, String instance, long first) {
            this.index = index;
            this.cluster = cluster;
            this.instance = instance;
            this.first = first;
        }

        /** The index of the host named {@code name} (numbered {@code nameId}), added at the end when new. */
        int host(int nameId, String name) {
            if (nameId >= hostIndex.length) {
                hostIndex = Arrays.copyOf(hostIndex, Math.max(nameId + 1, hostIndex.length * 2));
            }
            int i = hostIndex[nameId];
            if (i == 0) {
                hosts.add(name);
                i = hosts.size();
                hostIndex[nameId] = i;
            }
            return i - 1;
        }
    }
}
