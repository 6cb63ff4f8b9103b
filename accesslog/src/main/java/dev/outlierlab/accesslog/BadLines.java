package dev.outlierlab.accesslog;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Counts what a read skipped: bad lines (the first {@value #KEPT} kept with their file, line and why), lines
 * that reach no host's detector (by reason), and lines of other clusters.
 */
public final class BadLines {
    public static final int KEPT = 10;

    /** One kept bad line. */
    public record Bad(String source, long line, String why) {
        @Override
        public String toString() {
            return source + ":" + line + ": " + why;
        }
    }

    private final List<Bad> first = new ArrayList<>();
    private final Map<Outcome, Long> notReported = new EnumMap<>(Outcome.class);
    private final Map<ResponseFlag, Long> noHostByFlag = new EnumMap<>(ResponseFlag.class);
    private long bad;
    private long lines;
    private long stopAfter = Long.MAX_VALUE;

    /** Thrown by the scan when more lines are bad than the caller allows: an endless bad input ends. */
    public static final class LimitReached extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient BadLines lines;

        LimitReached(BadLines lines) {
            super("more bad lines than allowed", null, false, false);
            this.lines = lines;
        }

        /** The counts when the scan stopped. */
        public BadLines lines() {
            return lines;
        }
    }
    private long otherCluster;

    void line() {
        lines++;
    }

    void bad(String source, long line, String why) {
        bad++;
        if (first.size() < KEPT) {
            first.add(new Bad(source, line, why));
        }
        if (bad > stopAfter) {
            throw new LimitReached(this);
        }
    }

    /** Makes the scan stop with {@link LimitReached} once more than {@code n} lines are bad. */
    void stopAfter(long n) {
        stopAfter = n;
    }

    void notReported(Outcome outcome, long flags) {
        notReported.merge(outcome, 1L, Long::sum);
        if (outcome == Outcome.NO_UPSTREAM_HOST) {
            for (ResponseFlag f : ResponseFlag.values()) {
                if (f.in(flags)) {
                    noHostByFlag.merge(f, 1L, Long::sum);
                }
            }
        }
    }

    void countOtherCluster() {
        otherCluster++;
    }

    /** Lines read, blank lines excluded. */
    public long lines() {
        return lines;
    }

    public long bad() {
        return bad;
    }

    public List<Bad> first() {
        return List.copyOf(first);
    }

    public long noUpstreamHost() {
        return notReported.getOrDefault(Outcome.NO_UPSTREAM_HOST, 0L);
    }

    public long noResponse() {
        return notReported.getOrDefault(Outcome.NO_RESPONSE, 0L);
    }

    /** Lines without an upstream host, by the flags they carried. */
    public Map<ResponseFlag, Long> noHostByFlag() {
        return Map.copyOf(noHostByFlag);
    }

    public long otherCluster() {
        return otherCluster;
    }
}
