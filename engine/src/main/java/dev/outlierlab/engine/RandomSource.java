package dev.outlierlab.engine;

/**
 * The detector's only source of randomness (enforcement draws and ejection jitter), so that a run is a
 * function of its seed. Values are treated as unsigned 64-bit numbers, like Envoy's
 * {@code Random::RandomGenerator::random()}.
 */
@FunctionalInterface
public interface RandomSource {
    long next();

    /** {@code next() mod bound} with the draw read as unsigned, as Envoy's {@code random() % bound}. */
    default long nextModulo(long bound) {
        return Long.remainderUnsigned(next(), bound);
    }
}
