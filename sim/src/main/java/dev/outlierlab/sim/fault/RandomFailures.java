package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;

/**
 * The random pattern: each request fails independently, iff {@code draw mod 1000000 < ppm}, one draw per request
 * from the fault's own stream for this host. The stream is SplitMix64, whose state after {@code k} draws is
 * {@code seed + k * GOLDEN}, so request {@code k}'s draw is {@code mix(seed + (k + 1) * GOLDEN)}: a function of
 * {@code k}, which lets a stretch of requests be counted without drawing for each and the next failure be found by a
 * tight scan of draws ({@link #nextFailure}), the same draws in the same order as one request at a time.
 */
final class RandomFailures implements FailureSequence {
    private final long ppm;
    private final long streamSeed;
    /** Request numbers in [scannedFrom, scannedTo) are known to pass; scannedTo fails when failureKnown. */
    private long scannedFrom;

    private long scannedTo;
    private boolean failureKnown;

    /** The failures of this stream at this rate found by earlier runs, or null. */
    private final FailureMemo.Stream memo;

    private final FailureMemo.Cursor cursor = new FailureMemo.Cursor();

    RandomFailures(long ppm, long streamSeed) {
        this(ppm, streamSeed, null);
    }

    /** @param memo where the failures are looked up rather than drawn for each request, or null */
    RandomFailures(long ppm, long streamSeed, FailureMemo memo) {
        this.ppm = ppm;
        this.streamSeed = streamSeed;
        this.memo = memo == null || ppm <= 0 || ppm >= FaultSpec.PPM ? null : memo.stream(streamSeed, ppm);
    }

    @Override
    public boolean fails(long k) {
        return draw(k) < ppm;
    }

    private long draw(long k) {
        return SplitMix.millionths(SplitMix.mix(SplitMix.stateOfDraw(streamSeed, k)));
    }

    @Override
    public boolean indexed() {
        return true;
    }

    @Override
    public long nextFailure(long k, long limit) {
        if (ppm == 0) {
            return limit;
        }
        if (memo != null) {
            long found = memo.nextFailure(k, limit, cursor);
            if (found >= 0) {
                return found;
            }
            return scan(-1 - found, limit); // past the memo's blocks: draw from there
        }
        return scan(k, limit);
    }

    @Override
    public long scanFailures(long k, long limit, FailureScan scan) {
        if (memo == null) {
            return FailureSequence.super.scanFailures(k, limit, scan);
        }
        long n = k;
        while (n < limit) {
            long b = n >>> FailureMemo.BITS;
            char[] block = memo.block(b);
            if (block == null) {
                return FailureSequence.super.scanFailures(n, limit, scan);
            }
            long base = b << FailureMemo.BITS;
            for (int at = FailureMemo.Stream.firstAtOrAfter(block, (int) (n - base)); at < block.length; at++) {
                long f = base + block[at];
                if (f >= limit) {
                    return limit;
                }
                if (!scan.add(f)) {
                    return f;
                }
            }
            n = base + FailureMemo.BLOCK;
        }
        return limit;
    }

    private long scan(long k, long limit) {
        long n = k;
        if (k >= scannedFrom && k <= scannedTo) {
            if (failureKnown) {
                return Math.min(scannedTo, limit);
            }
            n = scannedTo;
        } else {
            scannedFrom = k;
            failureKnown = false;
        }
        long state = SplitMix.stateOfDraw(streamSeed, n);
        while (n < limit && SplitMix.millionths(SplitMix.mix(state)) >= ppm) {
            n++;
            state += SplitMix.GOLDEN;
        }
        scannedTo = n;
        failureKnown = n < limit;
        return Math.min(n, limit);
    }
}
