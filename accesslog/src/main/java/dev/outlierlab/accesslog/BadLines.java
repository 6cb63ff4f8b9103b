package dev.outlierlab.accesslog;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Counts what a read skipped: bad lines (the first {@value #KEPT} kept with their file, line and why, first by
 * the order the inputs were given, then by line, however the reading of several inputs interleaved), lines
 * that reach no host's detector (by reason), and lines of other clusters. The counts of reads of separate
 * inputs add up ({@link #counts}, {@link #add}) to those of one read of them all, so a read spread over
 * several machines reports what one machine would.
 */
public final class BadLines {
    public static final int KEPT = 10;

    /** One kept bad line. */
    public record Bad(String source, long line, String why) implements Serializable {
        @Override
        public String toString() {
            return source + ":" + line + ": " + why;
        }
    }

    /** The counts of one read, to be added to another's with {@link #add}. */
    public record Counts(
            long lines,
            long bad,
            long otherCluster,
            Map<LineOutcome, Long> notReported,
            Map<ResponseFlag, Long> noHostByFlag,
            List<Bad> first)
            implements Serializable {
        public Counts {
            notReported = notReported.isEmpty() ? new EnumMap<>(LineOutcome.class) : new EnumMap<>(notReported);
            noHostByFlag = noHostByFlag.isEmpty() ? new EnumMap<>(ResponseFlag.class) : new EnumMap<>(noHostByFlag);
            first = List.copyOf(first);
        }
    }

    private record Kept(int input, Bad bad) {}

    private final List<Kept> first = new ArrayList<>();
    private final Map<LineOutcome, Long> notReported = new EnumMap<>(LineOutcome.class);
    private final Map<ResponseFlag, Long> noHostByFlag = new EnumMap<>(ResponseFlag.class);
    private long bad;
    private long lines;
    private long otherCluster;
    private long stopAfter = Long.MAX_VALUE;
    private boolean stopWhenMostlyBad;

    /**
     * Lines read before a share of bad lines ({@code --max-bad-lines 1%}) may stop the reading early: from then
     * on, a read of which more than half the lines are bad stops at once (such an input is not a log of the
     * format, and an endless one, {@code /dev/urandom}, would never end).
     */
    public static final long MOSTLY_BAD_MIN_LINES = 10_000;

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

    void line() {
        lines++;
    }

    void bad(int input, String source, long line, String why) {
        bad++;
        keep(input, new Bad(source, line, why));
        if (bad > stopAfter || stopWhenMostlyBad && lines >= MOSTLY_BAD_MIN_LINES && bad * 2 > lines) {
            throw new LimitReached(this);
        }
    }

    /** Keeps {@code b} among the first {@value #KEPT} by input, then line. */
    private void keep(int input, Bad b) {
        int i = first.size();
        while (i > 0
                && (first.get(i - 1).input() > input
                        || first.get(i - 1).input() == input
                                && first.get(i - 1).bad().line() > b.line())) {
            i--;
        }
        if (i >= KEPT) {
            return;
        }
        first.add(i, new Kept(input, b));
        if (first.size() > KEPT) {
            first.remove(KEPT);
        }
    }

    /** What this read counted, to add to another read's. */
    public Counts counts() {
        return new Counts(lines, bad, otherCluster, notReported, noHostByFlag, first());
    }

    /** Adds the counts of a read of other inputs; its kept bad lines are of the input numbered {@code input}. */
    public void add(Counts c, int input) {
        lines += c.lines();
        bad += c.bad();
        otherCluster += c.otherCluster();
        c.notReported().forEach((k, v) -> notReported.merge(k, v, Long::sum));
        c.noHostByFlag().forEach((k, v) -> noHostByFlag.merge(k, v, Long::sum));
        for (Bad b : c.first()) {
            keep(input, b);
        }
    }

    /** Makes the scan stop with {@link LimitReached} once more than {@code n} lines are bad. */
    void stopAfter(long n) {
        stopAfter = n;
    }

    /**
     * A counter that stops the reading past {@code maxBadLines} bad lines and, with {@code stopWhenMostlyBad} (a
     * limit given as a share of the lines), once most of {@value #MOSTLY_BAD_MIN_LINES} lines or more are bad.
     */
    public static BadLines limitedTo(long maxBadLines, boolean stopWhenMostlyBad) {
        BadLines bad = new BadLines();
        bad.stopAfter(maxBadLines);
        if (stopWhenMostlyBad) {
            bad.stopWhenMostlyBad();
        }
        return bad;
    }

    /**
     * Makes the scan stop with {@link LimitReached} once {@value #MOSTLY_BAD_MIN_LINES} lines or more are read and
     * more than half of them are bad.
     */
    void stopWhenMostlyBad() {
        stopWhenMostlyBad = true;
    }

    /** Whether the read stopped (or would stop) because most of its lines were bad, by the rule above. */
    public boolean mostlyBad() {
        return lines >= MOSTLY_BAD_MIN_LINES && bad * 2 > lines;
    }

    void notReported(LineOutcome outcome, long flags) {
        notReported.merge(outcome, 1L, Long::sum);
        if (outcome == LineOutcome.NO_UPSTREAM_HOST) {
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
        return first.stream().map(Kept::bad).toList();
    }

    public long noUpstreamHost() {
        return notReported.getOrDefault(LineOutcome.NO_UPSTREAM_HOST, 0L);
    }

    public long noResponse() {
        return notReported.getOrDefault(LineOutcome.NO_RESPONSE, 0L);
    }

    /** Lines without an upstream host, by the flags they carried. */
    public Map<ResponseFlag, Long> noHostByFlag() {
        return Map.copyOf(noHostByFlag);
    }

    public long otherCluster() {
        return otherCluster;
    }
}
