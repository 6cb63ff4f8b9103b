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
    public record Episode(
            String host,
            int ejections,
            long firstNanos,
            long lastNanos,
            int returnsByHealthCheck,
            int returnsByTime,
            int healthCheckHealthyMin,
            int healthCheckHealthyMax,
            int membershipHealthyMin) {
        /** Ejections per minute from the first to the last. */
        public double perMinute() {
            return (ejections - 1) * 60e9 / Math.max(1, lastNanos - firstNanos);
        }

        /** Whether the health checks saw no change while the host flapped. */
        public boolean healthChecksFlat() {
            return healthCheckHealthyMin == healthCheckHealthyMax;
        }
    }

    private Flapping() {}

    /** Every episode in these events, in the order they ended (by host, then in time, for one host). */
    public static List<Episode> find(List<OutlierEvent> events, SignalSeries signals) {
        Tracker tracker = new Tracker();
        for (OutlierEvent e : events) {
            tracker.onEvent(e);
        }
        return tracker.finish(signals);
    }

    /**
     * Follows a run's events as they happen, keeping a few numbers per host (never the events), so that a run
     * whose result keeps only some of its events is still analysed whole.
     */
    public static final class Tracker {
        private static final class Chain {
            int ejections;
            int byHc;
            int byTime;
            long first = -1;
            long last = -1;
            long end = -1;
        }

        private final Map<String, Chain> open = new LinkedHashMap<>();
        private final List<String> hosts = new ArrayList<>();
        private final List<Chain> closed = new ArrayList<>();

        public void onEvent(OutlierEvent e) {
            if (e.action() == EventAction.EJECT) {
                Chain c = open.get(e.host());
                if (c != null && e.timeNanos() - c.last >= WINDOW_NANOS) {
                    close(e.host(), c);
                    c = null;
                }
                if (c == null) {
                    c = new Chain();
                    c.first = e.timeNanos();
                    open.put(e.host(), c);
                }
                c.ejections++;
                c.last = e.timeNanos();
            } else if (e.action() == EventAction.UNEJECT) {
                Chain c = open.get(e.host());
                if (c != null) {
                    if (e.uneject() == UnejectReason.ACTIVE_HEALTH_CHECK) {
                        c.byHc++;
                    } else {
                        c.byTime++;
                    }
                    c.end = e.timeNanos();
                }
            }
        }

        /** The episodes, each with the health checks' view over its span from {@code signals} (may be null). */
        public List<Episode> finish(SignalSeries signals) {
            for (Map.Entry<String, Chain> e : open.entrySet()) {
                close(e.getKey(), e.getValue());
            }
            open.clear();
            List<Episode> out = new ArrayList<>();
            for (int i = 0; i < closed.size(); i++) {
                out.add(episode(hosts.get(i), closed.get(i), signals));
            }
            return out;
        }

        private void close(String host, Chain c) {
            if (c.ejections >= MIN_EJECTIONS) {
                hosts.add(host);
                closed.add(c);
            }
        }

        private static Episode episode(String host, Chain c, SignalSeries signals) {
            int hcMin = Integer.MAX_VALUE;
            int hcMax = Integer.MIN_VALUE;
            int memberMin = Integer.MAX_VALUE;
            if (signals != null && signals.size() > 0) {
                int from = (int) Math.min(c.first / signals.stepNanos(), signals.size() - 1);
                int to = (int) Math.min(Math.max(c.end, c.last) / signals.stepNanos(), signals.size() - 1);
                for (int b = from; b <= to; b++) {
                    hcMin = Math.min(hcMin, signals.healthCheckHealthy()[b]);
                    hcMax = Math.max(hcMax, signals.healthCheckHealthy()[b]);
                    memberMin = Math.min(memberMin, signals.membershipHealthy()[b]);
                }
            }
            return new Episode(host, c.ejections, c.first, c.last, c.byHc, c.byTime, hcMin, hcMax, memberMin);
        }
    }
}
