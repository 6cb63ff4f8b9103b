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

    /**
     * The state whose {@link #mix} is draw {@code k} (counted from 0) of a stream started at {@code seed}: the state
     * after {@code k + 1} steps, {@code seed + (k + 1) * GOLDEN}. The next draw's state is this plus {@link #GOLDEN}.
     */
    static long stateOfDraw(long seed, long k) {
        return seed + (k + 1) * GOLDEN;
    }

    /** The next draw modulo {@code bound}, reading the draw as unsigned. */
    long nextModulo(long bound) {
        return Long.remainderUnsigned(next(), bound);
    }

    /** {@code ceil(2^72 / 15625)}: {@link #millionths} divides by 15,625 as a multiplication. */
    private static final long BY_15625 = 302231454903657294L;

    /**
     * {@code Long.remainderUnsigned(x, 1_000_000)} without a division: {@code x div 10^6} is {@code (x >>> 6) div
     * 15625}, and for {@code y = x >>> 6 < 2^58}, {@code y div 15625} is the high word of {@code y * BY_15625} shifted
     * by 8 (the multiplier's excess over {@code 2^72 / 15625} is below {@code 2^14}, so its error times {@code y}
     * stays below {@code 2^72} and the quotient is exact for every {@code y}). The draw of a random fault pattern, in
     * parts per million, taken once per request.
     */
    static long millionths(long x) {
        long quotient = Math.multiplyHigh(x >>> 6, BY_15625) >>> 8;
        return x - quotient * 1_000_000L;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
