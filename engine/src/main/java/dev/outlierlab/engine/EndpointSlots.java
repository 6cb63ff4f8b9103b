package dev.outlierlab.engine;

/**
 * Per-endpoint arrays without one endpoint's slot: what a detector does to each of its per-endpoint arrays when an
 * endpoint leaves (grpc-java drops the address's {@code EndpointTracker}; Envoy's {@code DetectorImpl} drops the
 * host's monitor), the endpoints after it moving down by one.
 */
public final class EndpointSlots {
    private EndpointSlots() {}

    public static long[] without(long[] from, int index) {
        long[] into = new long[from.length - 1];
        System.arraycopy(from, 0, into, 0, index);
        System.arraycopy(from, index + 1, into, index, into.length - index);
        return into;
    }

    public static boolean[] without(boolean[] from, int index) {
        boolean[] into = new boolean[from.length - 1];
        System.arraycopy(from, 0, into, 0, index);
        System.arraycopy(from, index + 1, into, index, into.length - index);
        return into;
    }

    /** {@code into} is an array one shorter than {@code from}, filled and returned. */
    public static <T> T[] without(T[] from, int index, T[] into) {
        System.arraycopy(from, 0, into, 0, index);
        System.arraycopy(from, index + 1, into, index, into.length - index);
        return into;
    }
}
