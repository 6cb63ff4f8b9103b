package dev.outlierlab.sim.signals;

import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds flapping in a run's events: a host ejected again and again, each ejection less than {@link #WINDOW_NANOS} (Envoy's default base_ejection_time)
 * of the one before, at least {@link #MIN_EJECTIONS} times in a row (seed 003: "ejections_active rises and falls",
 * the rate of {@code ejections_enforced_total} climbing). For each such episode it says how the host came back
 * each time and whether the health checks' view of the cluster stayed flat meanwhile.
 */
public final class Flapping {
    /** Two ejections of one episode are less than this apart: sooner than a return by time alone allows. */
    public static final long WINDOW_NANOS = 30_000_000_000L;
    /** Fewest ejections that make an episode. */
    public static final int MIN_EJECTIONS = 3;

    /**
     * One episode of flapping.
     *
     * @param returnsByHealthCheck returns in the episode made by a passing active health check
     * @param returnsByTime        returns in the episode made by the ejection time running out
     * @param healthCheckHealthyMin fewest hosts passing health checks at a sample within the episode
     * @param healthCheckHealthyMax most hosts passing health checks at a sample within the episode
     * @param membershipHealthyMin fewest hosts in {@code membership_healthy} at a sample within the episode
     */
    public record Episode(String host, int ejections, long firstNanos, long lastNanos, int returnsByHealthCheck,
            int returnsByTime, int healthCheckHealthyMin, int healthCheckHealthyMax, int membershipHealthyMin) {
        /** Ejections per minute from the first to the last. */
        public double perMinute() {
            return (ejections - 1) * 60e9 / Math.max(1, lastNanos - firstNanos);
        }

        /** Whether the health checks saw no change while the host flapped. */
        public boolean healthChecksFlat() {
            return healthCheckHealthyMin == healthCheckHealthyMax;
        }
    }

    private Flapping() {
    }

    /** Every episode, by host in order of first ejection, then in time. */
    public static List<Episode> find(List<OutlierEvent> events, SignalSeries signals) {
        Map<String, List<OutlierEvent>> byHost = new LinkedHashMap<>();
        for (OutlierEvent e : events) {
            if (e.action() == EventAction.EJECT || e.action() == EventAction.UNEJECT) {
                byHost.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(e);
            }
        }
        List<Episode> episodes = new ArrayList<>();
        for (Map.Entry<String, List<OutlierEvent>> entry : byHost.entrySet()) {
            List<OutlierEvent> chain = new ArrayList<>();
            long lastEject = Long.MIN_VALUE;
            for (OutlierEvent e : entry.getValue()) {
                if (e.action() == EventAction.EJECT) {
                    if (!chain.isEmpty() && e.timeNanos() - lastEject >= WINDOW_NANOS) {
                        close(entry.getKey(), chain, signals, episodes);
                        chain.clear();
                    }
                    lastEject = e.timeNanos();
                }
                chain.add(e);
            }
            close(entry.getKey(), chain, signals, episodes);
        }
        return episodes;
    }

    private static void close(String host, List<OutlierEvent> chain, SignalSeries signals, List<Episode> out) {
        int ejections = 0;
        int byHc = 0;
        int byTime = 0;
        long first = -1;
        long last = -1;
        long end = -1;
        for (OutlierEvent e : chain) {
            if (e.action() == EventAction.EJECT) {
                ejections++;
                first = first < 0 ? e.timeNanos() : first;
                last = e.timeNanos();
            } else if (first >= 0) {
                if (e.uneject() == UnejectReason.ACTIVE_HEALTH_CHECK) {
                    byHc++;
                } else {
                    byTime++;
                }
                end = e.timeNanos();
            }
        }
        if (ejections < MIN_EJECTIONS) {
            return;
        }
        int hcMin = Integer.MAX_VALUE;
        int hcMax = Integer.MIN_VALUE;
        int memberMin = Integer.MAX_VALUE;
        if (signals != null) {
            int from = (int) Math.min(first / signals.stepNanos(), signals.size() - 1);
            int to = (int) Math.min(Math.max(end, last) / signals.stepNanos(), signals.size() - 1);
            for (int b = from; b <= to; b++) {
                hcMin = Math.min(hcMin, signals.healthCheckHealthy()[b]);
                hcMax = Math.max(hcMax, signals.healthCheckHealthy()[b]);
                memberMin = Math.min(memberMin, signals.membershipHealthy()[b]);
            }
        }
        out.add(new Episode(host, ejections, first, last, byHc, byTime, hcMin, hcMax, memberMin));
    }
}
