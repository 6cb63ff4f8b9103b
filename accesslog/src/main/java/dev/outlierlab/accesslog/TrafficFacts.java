package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an access log says of one cluster's traffic, as {@code tune --from-log} takes it: requests per second over
 * the log's span (0 when it spans under {@value #MIN_SPAN_SECONDS} s: then {@code said} says why and the rate must be
 * given), the hosts seen, the proxy instances (callers), and the base error rate of the hosts that fail no more than
 * the pool, in parts per million.
 *
 * @param rps          requests per second, or 0 when the span is too short to measure one
 * @param hosts        hosts seen
 * @param clients      proxy instances (each a caller)
 * @param baseErrorPpm the healthy pool's failures per million requests
 * @param said         one line saying where these figures come from
 */
public record TrafficFacts(long rps, int hosts, int clients, long baseErrorPpm, String said) {
    /** The shortest span of a log whose rate is taken. */
    public static final int MIN_SPAN_SECONDS = 5;
    /** A healthy pool failing this share or more is an outage, not a base error rate. */
    public static final double OUTAGE_SHARE = 0.5;

    /**
     * The facts of {@code log} (named {@code fromLog} in messages). Refused: a log with no line that reached a host,
     * a log of several upstream clusters, and a log whose healthy pool fails {@link #OUTAGE_SHARE} or more.
     */
    public static TrafficFacts of(LogTraffic log, String fromLog) {
        if (log.groups().isEmpty()) {
            throw new InputException(
                    "--from-log " + fromLog + ": no line reached an upstream host; no traffic to take");
        }
        Set<String> clusters = new TreeSet<>();
        long entries = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (LogTraffic.Group g : log.groups()) {
            clusters.add(g.cluster());
            entries += g.requests();
            first = Math.min(first, g.firstEpochNanos());
            last = Math.max(last, g.lastEpochNanos());
        }
        if (clusters.size() > 1) {
            throw new InputException(
                    "--from-log " + fromLog + ": the log has " + clusters.size() + " upstream clusters ("
                            + String.join(", ", clusters) + "); tune one at a time (filter the log to one cluster)");
        }
        double span = (last - first) / 1e9;
        double base = log.healthyErrorShare();
        if (base >= OUTAGE_SHARE) {
            throw new InputException(String.format(
                    Locale.ROOT,
                    "--from-log %s: every host fails %.1f %% of "
                            + "its requests or more: an outage, not a base error rate; tune from a log of the cluster's usual "
                            + "traffic",
                    fromLog,
                    base * 100));
        }
        double seconds = Math.max(1.0, span);
        // a log spanning under a few seconds (10,000 lines with one timestamp) says nothing of a rate
        long perSecond = span < MIN_SPAN_SECONDS ? 0 : Math.max(1, Math.round(entries / seconds));
        int hostsSeen = log.perHost().size();
        int callers = log.groups().size();
        long ppm = Math.round(base * 1_000_000);
        if (perSecond == 0) {
            return new TrafficFacts(
                    0,
                    hostsSeen,
                    callers,
                    ppm,
                    String.format(
                            Locale.ROOT,
                            "from the log %s: %,d requests over %.1f s, under the %d s a rate can be measured from",
                            fromLog,
                            entries,
                            Math.max(0, span),
                            MIN_SPAN_SECONDS));
        }
        String said = String.format(
                        Locale.ROOT,
                        "from the log %s: %,d requests over %.0f s, %d rps to %d hosts "
                                + "(%d rps a host) from %d %s (%d rps a caller); base error rate %.2f %% over the %d hosts that fail no "
                                + "more than the pool",
                        fromLog,
                        entries,
                        seconds,
                        perSecond,
                        hostsSeen,
                        perSecond / Math.max(1, hostsSeen),
                        callers,
                        callers == 1 ? "caller" : "callers",
                        perSecond / callers,
                        base * 100,
                        log.healthyPool().size())
                .replace("over the 1 hosts that fail", "over the 1 host that fails");
        return new TrafficFacts(perSecond, hostsSeen, callers, ppm, said);
    }

    /** Refuses a log too short to measure a rate when no rate is given otherwise. */
    public void requireRate(String fromLog) {
        if (rps == 0) {
            throw new InputException("--from-log " + fromLog + ": " + said.substring(said.indexOf(": ") + 2)
                    + "; give the cluster's rate with --rps");
        }
    }
}
