package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;

/**
 * The random pattern: each request fails independently, iff {@code draw mod 1000000 < ppm}, one draw per
 * request from the fault's own stream for this host.
 */
final class RandomFailures implements FailureSequence {
    private final long ppm;
    private final SplitMix stream;

    RandomFailures(long ppm, long streamSeed) {
        this.ppm = ppm;
        this.stream = new SplitMix(streamSeed);
    }

    @Override
    public boolean fails(long k) {
        return stream.nextModulo(FaultSpec.PPM) < ppm;
    }
}
