package dev.outlierlab.report;

import dev.outlierlab.config.Wording;
import dev.outlierlab.sim.HostTraffic;
import dev.outlierlab.sim.ReplayResult;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of a replay's text report that speak of the incident as a whole rather than of one detector: the span
 * of the logs in their own clock, and the total across the proxies (every caller's detector of the same hosts),
 * host by host, of what the logs recorded and what the settings' ejections would have moved.
 */
public final class ReplayTotalText {
    private ReplayTotalText() {}

    /**
     * The head's span line: {@code 2026-03-02 10:00:00.000 UTC .. 10:01:29.950 UTC (89.95 s)}.
     *
     * @param lastNanos the last outcome, in nanoseconds from the first
     */
    public static String span(LogClock clock, long lastNanos) {
        return String.format(
                Locale.ROOT,
                "  span         %s .. %s UTC (%s)%n",
                clock.dateTime(0),
                clock.timeOfDay(lastNanos),
                Numbers.seconds(lastNanos));
    }

    /**
     * One detector's figures for the total, host by host: requests, failed, ejections, requests moved, failures
     * avoided (plain values, so that a distributed replay ships them with the detector's section).
     */
    public record Tally(String instance, String cluster, TreeMap<String, long[]> hosts) implements Serializable {}

    /** The figures of one detector's replay. */
    public static Tally tally(ReplayResult r, String instance, String cluster) {
        TreeMap<String, long[]> hosts = new TreeMap<>();
        Map<String, Long> ejections = ReplayHostsText.ejections(r);
        for (HostTraffic h : r.hosts()) {
            hosts.put(h.host(), new long[] {
                h.requests(),
                h.failed(),
                ejections.getOrDefault(h.host(), 0L),
                h.requestsWhileEjected(),
                h.failedWhileEjected()
            });
        }
        return new Tally(instance, cluster, hosts);
    }

    /** The total across detectors, host by host in name order; empty with one detector (its section says it all). */
    public static String render(List<Tally> tallies) {
        if (tallies.size() < 2) {
            return "";
        }
        Map<String, long[]> hosts = new TreeMap<>();
        long requests = 0;
        long failed = 0;
        long moved = 0;
        long avoided = 0;
        for (Tally tally : tallies) {
            for (Map.Entry<String, long[]> e : tally.hosts().entrySet()) {
                long[] t = hosts.computeIfAbsent(e.getKey(), k -> new long[5]);
                long[] h = e.getValue();
                for (int i = 0; i < 5; i++) {
                    t[i] += h[i];
                }
                requests += h[0];
                failed += h[1];
                moved += h[3];
                avoided += h[4];
            }
        }
        long instances = tallies.stream().map(Tally::instance).distinct().count();
        long clusters = tallies.stream().map(Tally::cluster).distinct().count();
        String detectors = instances + (instances == 1 ? " proxy" : " proxies") + ", " + clusters
                + (clusters == 1 ? " cluster" : " clusters");
        int width = "host".length();
        for (String h : hosts.keySet()) {
            width = Math.max(width, Wording.printable(h).length());
        }
        StringBuilder out =
                new StringBuilder("\n== total across " + tallies.size() + " detectors (" + detectors + ") ==\n\n");
        out.append(String.format(
                Locale.ROOT,
                "  requests      %s, %s failed (%s %%)%n",
                Numbers.count(requests),
                Numbers.count(failed),
                Numbers.two(percent(failed, requests))));
        String row = "  %-" + width + "s  %10s  %9s  %9s  %14s  %16s%n";
        out.append(String.format(
                Locale.ROOT, row, "host", "requests", "failed", "ejections", "requests moved", "failures avoided"));
        hosts.forEach((h, t) -> out.append(String.format(
                Locale.ROOT,
                row,
                Wording.printable(h),
                Numbers.count(t[0]),
                Numbers.count(t[1]),
                Numbers.count(t[2]),
                Numbers.count(t[3]),
                Numbers.count(t[4]))));
        out.append(String.format(
                Locale.ROOT,
                "  total: %s requests moved; at most %s of the logs' %s failures avoided" + " (%s %%)%n",
                Numbers.count(moved),
                Numbers.count(avoided),
                Numbers.count(failed),
                Numbers.two(percent(avoided, failed))));
        return out.toString();
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : part * 100.0 / whole;
    }
}
