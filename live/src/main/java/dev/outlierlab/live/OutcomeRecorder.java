package dev.outlierlab.live;

/**
 * The lock-free front of a live pool: outcomes from any thread go into one of several
 * {@link OutcomeStripe}s chosen by the recording thread's id, so that threads rarely share a ring; the
 * pool's drainer takes them out merged by time (among outcomes at the same time, stripe order), which
 * gives one deterministic order when one thread records.
 */
final class OutcomeRecorder {
    private final OutcomeStripe[] stripes;
    private final int shift;

    OutcomeRecorder(int stripeCount, int capacityPerStripe) {
        if (Integer.bitCount(stripeCount) != 1) {
            throw new IllegalArgumentException("stripe count must be a power of two, not " + stripeCount);
        }
        stripes = new OutcomeStripe[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new OutcomeStripe(capacityPerStripe);
        }
        shift = 64 - Integer.numberOfTrailingZeros(stripeCount);
    }

    static long payload(int endpointId, int code) {
        return ((long) endpointId << 32) | (code & 0xffffffffL);
    }

    static int endpointId(long payload) {
        return (int) (payload >>> 32);
    }

    static int code(long payload) {
        return (int) payload;
    }

    /** The stripe of the calling thread (Fibonacci hashing of its id). */
    OutcomeStripe stripeOfCurrentThread() {
        if (stripes.length == 1) {
            return stripes[0];
        }
        @SuppressWarnings("deprecation")
        long id = Thread.currentThread().getId();
        return stripes[(int) ((id * 0x9E3779B97F4A7C15L) >>> shift)];
    }

    boolean hasPending() {
        for (OutcomeStripe s : stripes) {
            if (s.hasNext()) {
                return true;
            }
        }
        return false;
    }

    /** The stripe whose next outcome is the earliest, or null when none is published. Consumer only. */
    OutcomeStripe earliest() {
        OutcomeStripe best = null;
        long bestTime = Long.MAX_VALUE;
        for (OutcomeStripe s : stripes) {
            if (s.hasNext()) {
                long t = s.peekTime();
                if (best == null || t < bestTime) {
                    best = s;
                    bestTime = t;
                }
            }
        }
        return best;
    }

    /** The earliest head time of the stripes other than {@code except}, or {@link Long#MAX_VALUE}. */
    long earliestTimeExcept(OutcomeStripe except) {
        long best = Long.MAX_VALUE;
        for (OutcomeStripe s : stripes) {
            if (s != except && s.hasNext()) {
                best = Math.min(best, s.peekTime());
            }
        }
        return best;
    }

    long accepted() {
        long sum = 0;
        for (OutcomeStripe s : stripes) {
            sum += s.accepted();
        }
        return sum;
    }
}
