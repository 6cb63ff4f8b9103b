package dev.outlierlab.engine;

/**
 * SplitMix64: a small, fully specified generator, so that the same seed gives the same draws on every JVM
 * and in every port of the lab. Not for security.
 */
public final class SeededRandom implements RandomSource {
    private long state;

    public SeededRandom(long seed) {
        this.state = seed;
    }

    @Override
    public long next() {
        state += 0x9E3779B97F4A7C15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
