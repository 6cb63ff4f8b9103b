package dev.outlierlab.accesslog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an access log says of a cluster's traffic, for {@code tune --from-log}: per upstream cluster and proxy
 * instance (a caller: Envoy keeps a detector per cluster in each proxy) the span of outcome times, and per host the
 * requests that reached it and the failures among them, as Envoy's outlier detector counts them ({@link LineOutcome}:
 * a 5xx response, an upstream timeout, a refused or reset connection; lines that report nothing to a host are not
 * counted). One pass over the merged logs, memory in the names only.
 *
 * @param groups the clusters and instances, in order of first appearance
 * @param lines  every line read, bad and skipped ones counted
 */
public record LogTraffic(List<Group> groups, BadLines lines) {
    public LogTraffic {
        groups = List.copyOf(groups);
    }

    /** One host's requests and failures in one group. */
    public record HostCount(String host, long requests, long failures) {}

    /** One cluster as one proxy instance saw it. */
    public record Group(
            String cluster, String instance, List<HostCount> hosts, long firstEpochNanos, long lastEpochNanos) {
        public Group {
            hosts = List.copyOf(hosts);
        }

        public long requests() {
            return hosts.stream().mapToLong(HostCount::requests).sum();
        }
    }

    /**
     * Reads the logs, stopping with {@link BadLines.LimitReached} past {@code maxBadLines} bad lines, or (with
     * {@code stopWhenMostlyBad}, for a limit given as a share) once most of {@value BadLines#MOSTLY_BAD_MIN_LINES}
     * lines or more are bad, as {@link LogScan#scan} does.
     */
    public static LogTraffic read(
            List<LogInput> inputs, ReadSettings settings, long maxBadLines, boolean stopWhenMostlyBad) {
        BadLines bad = BadLines.limitedTo(maxBadLines, stopWhenMostlyBad);
        Map<String, Building> groups = new LinkedHashMap<>();
        try (MergedLog log = new MergedLog(inputs, settings, bad, null)) {
            for (LogEntry next = log.next(); next != null; next = log.next()) {
                LogEntry e = next;
                if (e.outcome().reported() && e.outcome() != LineOutcome.CONNECTED_ONLY) {
                    LogScan.refuseBeyondMaxGroups(groups, e);
                    Building g = groups.computeIfAbsent(
                            LogScan.key(e), k -> new Building(e.cluster(), e.instance(), e.endEpochNanos()));
                    g.last = Math.max(g.last, e.endEpochNanos());
                    long[] c = g.hosts.computeIfAbsent(e.host(), h -> new long[2]);
                    c[0]++;
                    if (failed(e)) {
                        c[1]++;
                    }
                }
                log.recycle(e);
            }
        }
        List<Group> out = new ArrayList<>();
        for (Building b : groups.values()) {
            List<HostCount> hosts = new ArrayList<>();
            b.hosts.forEach((h, c) -> hosts.add(new HostCount(h, c[0], c[1])));
            out.add(new Group(b.cluster, b.instance, hosts, b.first, b.last));
        }
        return new LogTraffic(out, bad);
    }

    /** A failure as Envoy's outlier detection counts it: a 5xx, or a local-origin timeout, connect failure or reset. */
    static boolean failed(LogEntry e) {
        return e.outcome() != LineOutcome.RESPONSE || (e.code() >= 500 && e.code() <= 599);
    }

    /** Every host's requests and failures over all groups (callers), in order of first appearance. */
    public List<HostCount> perHost() {
        Map<String, long[]> all = new LinkedHashMap<>();
        for (Group g : groups) {
            for (HostCount h : g.hosts()) {
                long[] c = all.computeIfAbsent(h.host(), k -> new long[2]);
                c[0] += h.requests();
                c[1] += h.failures();
            }
        }
        List<HostCount> out = new ArrayList<>();
        all.forEach((h, c) -> out.add(new HostCount(h, c[0], c[1])));
        return out;
    }

    /**
     * The healthy pool's base error rate: the share of failures over the hosts whose own share is not above the
     * whole pool's (a host failing more than the pool is the fault, not the baseline); 0 for an empty log.
     */
    public double healthyErrorShare() {
        long requests = 0;
        long failures = 0;
        for (HostCount h : healthyPool()) {
            requests += h.requests();
            failures += h.failures();
        }
        return requests == 0 ? 0 : (double) failures / requests;
    }

    /** The hosts not failing more than the whole pool, whose failures are the base error rate. */
    public List<HostCount> healthyPool() {
        List<HostCount> all = perHost();
        long requests = 0;
        long failures = 0;
        for (HostCount h : all) {
            requests += h.requests();
            failures += h.failures();
        }
        List<HostCount> out = new ArrayList<>();
        for (HostCount h : all) {
            // failures / requests of the host at most the pool's, without a division
            if ((double) h.failures() * requests <= (double) failures * h.requests()) {
                out.add(h);
            }
        }
        return out;
    }

    private static final class Building {
        final String cluster;
        final String instance;
        final long first;
        final Map<String, long[]> hosts = new LinkedHashMap<>();
        long last;

        Building(String cluster, String instance, long first) {
            this.cluster = cluster;
            this.instance = instance;
            this.first = first;
            this.last = first;
        }
    }
}
