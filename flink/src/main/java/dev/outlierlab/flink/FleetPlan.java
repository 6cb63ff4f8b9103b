package dev.outlierlab.flink;

import dev.outlierlab.accesslog.LogScan;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.config.InputException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the replay of every detector needs before its first outcome, gathered from all the logs as
 * {@code replay}'s scan gathers it: the earliest outcome (time zero), and per detector its hosts in order of first
 * appearance, its span and count, the detectors numbered in order of first appearance. Appearance is ordered as
 * the merged logs are (end time, then input, then line), so partial plans of separate workers merge
 * ({@link #merge}) into the plan of one read of everything.
 */
final class FleetPlan implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A place in the merged logs. */
    record At(long endEpochNanos, int input, long line) implements Serializable, Comparable<At> {
        @Override
        public int compareTo(At o) {
            int c = Long.compare(endEpochNanos, o.endEpochNanos);
            if (c == 0) {
                c = Integer.compare(input, o.input);
            }
            return c != 0 ? c : Long.compare(line, o.line);
        }
    }

    /** One detector's part of the plan. */
    static final class Group implements Serializable {
        private static final long serialVersionUID = 1L;
        final String cluster;
        final String instance;
        At first;
        long lastEpochNanos = Long.MIN_VALUE;
        long entries;
        final Map<String, At> hosts = new HashMap<>();

        Group(String cluster, String instance) {
            this.cluster = cluster;
            this.instance = instance;
        }

        void merge(Group o) {
            if (first == null || o.first.compareTo(first) < 0) {
                first = o.first;
            }
            lastEpochNanos = Math.max(lastEpochNanos, o.lastEpochNanos);
            entries += o.entries;
            o.hosts.forEach((h, at) -> hosts.merge(h, at, (a, b) -> a.compareTo(b) <= 0 ? a : b));
        }

        ReplayGroup toReplayGroup() {
            List<Map.Entry<String, At>> order = new ArrayList<>(hosts.entrySet());
            order.sort(Map.Entry.comparingByValue());
            return new ReplayGroup(
                    cluster,
                    instance,
                    order.stream().map(Map.Entry::getKey).toList(),
                    first.endEpochNanos(),
                    lastEpochNanos,
                    entries);
        }
    }

    final Map<String, Group> groups = new LinkedHashMap<>();
    /**
     * The logs are refused whatever the replay would give (more bad lines than allowed, a read stopped for them):
     * the replay is skipped and the command refuses them with its message.
     */
    boolean skipReplay;
    /** Why the plan could not be made (bad input beyond a bound, or a failure), for the command to report. */
    RuntimeException refusal;

    /** Adds a chunk's outcomes: they are in the input's order, so each host's first in it is its earliest. */
    void add(OutcomeChunk c) {
        Group g = groups.computeIfAbsent(c.group, k -> new Group(OutcomeChunk.cluster(k), OutcomeChunk.instance(k)));
        At first = new At(c.firstEpochNanos, c.input, c.line(0));
        if (g.first == null || first.compareTo(g.first) < 0) {
            g.first = first;
        }
        g.lastEpochNanos = Math.max(g.lastEpochNanos, c.endEpochNanos(c.count - 1));
        g.entries += c.count;
        boolean[] seen = new boolean[c.hosts.length];
        int left = c.hosts.length;
        for (int i = 0; i < c.count && left > 0; i++) {
            int h = ByteBuffer.wrap(c.data).getShort(i * OutcomeChunk.BYTES + 8);
            if (!seen[h]) {
                seen[h] = true;
                left--;
                g.hosts.merge(
                        c.hosts[h],
                        new At(c.endEpochNanos(i), c.input, c.line(i)),
                        (a, b) -> a.compareTo(b) <= 0 ? a : b);
            }
        }
    }

    void merge(FleetPlan o) {
        skipReplay |= o.skipReplay;
        if (refusal == null) {
            refusal = o.refusal;
        }
        o.groups.forEach((k, g) -> {
            Group mine = groups.get(k);
            if (mine == null) {
                groups.put(k, g);
            } else {
                mine.merge(g);
            }
        });
    }

    /**
     * Refuses a plan beyond {@code replay}'s bounds before anything is replayed: more than
     * {@link LogScan#MAX_GROUPS} detectors, or more than {@code maxNames} distinct cluster, instance and host
     * names in all the logs (each file's read holds to the bound of names on its own; {@code replay}'s one read
     * of them all counts the lines past it as bad).
     */
    void refuseBeyondBounds(int maxNames) {
        if (groups.size() > LogScan.MAX_GROUPS) {
            throw new InputException("more than " + String.format(Locale.ROOT, "%,d", LogScan.MAX_GROUPS)
                    + " detectors (one per cluster and proxy instance) in the logs: "
                    + String.format(Locale.ROOT, "%,d", groups.size())
                    + "; replay one cluster with --cluster NAME, or fewer logs at a time");
        }
        Set<String> names = new HashSet<>();
        for (Group g : groups.values()) {
            names.add(g.cluster);
            names.add(g.instance);
            names.addAll(g.hosts.keySet());
            if (names.size() > maxNames) {
                throw new InputException("more than " + String.format(Locale.ROOT, "%,d", maxNames) + " distinct "
                        + "host, cluster and instance names in the logs; replay one cluster with --cluster NAME, "
                        + "or fewer logs at a time");
            }
        }
    }

    /**
     * The detectors by proxy instance, then cluster, in name order (as {@code LogReplay.inStableOrder} orders a local
     * replay's), with their keys.
     */
    List<Map.Entry<String, ReplayGroup>> ordered() {
        List<Map.Entry<String, ReplayGroup>> out = new ArrayList<>();
        for (Map.Entry<String, Group> e : groups.entrySet()) {
            out.add(Map.entry(e.getKey(), e.getValue().toReplayGroup()));
        }
        out.sort(Comparator.comparing(
                        (Map.Entry<String, ReplayGroup> e) -> e.getValue().instance())
                .thenComparing(e -> e.getValue().cluster()));
        return out;
    }

    /** A plan that carries only why it could not be made. */
    static FleetPlan refused(RuntimeException why) {
        FleetPlan p = new FleetPlan();
        p.refusal = why;
        return p;
    }

    /** Whether the replay is to be skipped: the logs are refused. */
    boolean skipsReplay() {
        return skipReplay || refusal != null;
    }

    /** The earliest outcome of all the logs: the replay's time zero (0 when there is none). */
    long originEpochNanos() {
        return groups.values().stream()
                .mapToLong(g -> g.first.endEpochNanos())
                .min()
                .orElse(0);
    }
}
