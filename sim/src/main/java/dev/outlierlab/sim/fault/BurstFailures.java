package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;

/**
 * The burst pattern: a two-state chain, one draw per request. The first request fails iff
 * {@code draw mod 1000000 < ppm} (the chain starts in its long-run state). After a failure the next request
 * fails again iff {@code draw mod L >= 1000}, where {@code L} is the mean burst length in thousandths, so a
 * burst ends with probability {@code 1/length} and its length is geometric with that mean. After a success the
 * next request starts a burst iff {@code draw mod (L * (1000000 - ppm)) < ppm * 1000}, the probability
 * {@code r / (length * (1 - r))} that keeps the long-run share of failures at the fault's rate {@code r}.
 * At 0 % and 100 % no draw is taken: no request fails, or every one does.
 */
final class BurstFailures implements FailureSequence {
    private final long ppm;
    private final long lengthMilli;
    private final long startBound;
    private final SplitMix stream;
    private boolean started;
    private boolean failing;

    BurstFailures(long ppm, long lengthMilli, long streamSeed) {
        this.ppm = ppm;
        this.lengthMilli = lengthMilli;
        this.startBound = lengthMilli * (FaultSpec.PPM - ppm);
        this.stream = new SplitMix(streamSeed);
    }

    @Override
    public boolean fails(long k) {
        if (ppm == 0 || ppm >= FaultSpec.PPM) {
            return ppm != 0;
        }
        if (!started) {
            started = true;
            failing = stream.nextModulo(FaultSpec.PPM) < ppm;
        } else if (failing) {
            failing = stream.nextModulo(lengthMilli) >= 1000;
        } else {
            failing = startBound > 0 && stream.nextModulo(startBound) < ppm * 1000;
        }
        return failing;
    }
}
