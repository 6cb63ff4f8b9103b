package dev.outlierlab.sim.fault;

/**
 * SplitMix64, the same generator as the detector's {@code SeededRandom}, as a mutable stream with its output
 * function exposed for deriving seeds. Fault patterns keep one stream per fault and host.
 */
final class SplitMix {
    static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private long state;

    SplitMix(long seed) {
        this.state = seed;
    }

    /** The next 64-bit draw: {@code state += GOLDEN; return mix(state)}. */
    long next() {
        state += GOLDEN;
        return mix(state);
    }

    /** The next draw modulo {@code bound}, reading the draw as unsigned. */
    long nextModulo(long bound) {
        return Long.remainderUnsigned(next(), bound);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
