package dev.outlierlab.sim.fault;

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

    RandomFailures(long ppm, long streamSeed) {
        this.ppm = ppm;
        this.streamSeed = streamSeed;
    }

    @Override
    public boolean fails(long k) {
        return draw(k) < ppm;
    }

    private long draw(long k) {
        return SplitMix.millionths(SplitMix.mix(streamSeed + (k + 1) * SplitMix.GOLDEN));
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
        long state = streamSeed + (n + 1) * SplitMix.GOLDEN;
        while (n < limit && SplitMix.millionths(SplitMix.mix(state)) >= ppm) {
            n++;
            state += SplitMix.GOLDEN;
        }
        scannedTo = n;
        failureKnown = n < limit;
        return Math.min(n, limit);
    }
}
