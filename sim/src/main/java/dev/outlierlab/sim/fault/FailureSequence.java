package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;
import java.nio.charset.StandardCharsets;

/**
 * The failures of one fault at one host: asked once for every request the host receives while the fault is
 * active, in order, it says whether that request fails. The even pattern is a function of the request's
 * number {@code k}; the random and burst patterns draw from a SplitMix64 stream of their own, seeded from the
 * scenario's seed, the fault's place in the list and the host's name, so that adding a host, or a fault after
 * this one, leaves these draws unchanged. One draw is taken per request (none at 0 % or 100 % in the burst
 * pattern), whether or not this fault decides it. The generators are specified in {@code docs/fault-patterns.md}.
 */
public interface FailureSequence {

    /** Whether request number {@code k} (from 0) of this fault at this host fails. */
    boolean fails(long k);

    /**
     * Whether {@link #fails} is a function of {@code k} alone (the even and random patterns; not the burst pattern,
     * whose chain remembers the last request): then the requests of a stretch can be counted without asking about
     * each, and {@link #nextFailure} may look ahead.
     */
    default boolean indexed() {
        return false;
    }

    /**
     * For an {@link #indexed} sequence: the first request number in {@code [k, limit)} that fails, or {@code limit}
     * when none does. Asks nothing that changes the sequence.
     */
    default long nextFailure(long k, long limit) {
        for (long n = k; n < limit; n++) {
            if (fails(n)) {
                return n;
            }
        }
        return limit;
    }

    /**
     * For an {@link #indexed} sequence: hands the failures among request numbers {@code [k, limit)} to {@code scan},
     * in order, and returns the first it stops at ({@link FailureScan#add}), or {@code limit}. Asks nothing that
     * changes the sequence.
     */
    default long scanFailures(long k, long limit, FailureScan scan) {
        long n = nextFailure(k, limit);
        while (n < limit) {
            if (!scan.add(n)) {
                return n;
            }
            n = nextFailure(n + 1, limit);
        }
        return limit;
    }

    /** The sequence for {@code fault} (at {@code faultIndex} in the scenario's list) at the host {@code host}. */
    static FailureSequence of(FaultSpec fault, int faultIndex, String host, long seed) {
        return of(fault, faultIndex, host, seed, null);
    }

    /** {@link #of(FaultSpec, int, String, long)}, the random pattern's failures looked up in {@code memo} (or null). */
    static FailureSequence of(FaultSpec fault, int faultIndex, String host, long seed, FailureMemo memo) {
        return switch (fault.pattern()) {
            case EVEN -> new EvenFailures(fault);
            case RANDOM -> new RandomFailures(fault.errorRatePpm(), streamSeed(seed, faultIndex, host), memo);
            case BURSTS ->
                new BurstFailures(fault.errorRatePpm(), fault.burstLengthMilli(), streamSeed(seed, faultIndex, host));
        };
    }

    /**
     * The starting state of the stream for one fault and host:
     * {@code mix(mix(seed + GOLDEN * (faultIndex + 1)) ^ fnv1a64(host))}, where {@code mix} is SplitMix64's
     * output function, {@code GOLDEN} is 0x9E3779B97F4A7C15 and {@code fnv1a64} is the 64-bit FNV-1a hash of the
     * name's UTF-8 bytes.
     */
    static long streamSeed(long seed, int faultIndex, String host) {
        long h = 0xcbf29ce484222325L;
        for (byte b : host.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return SplitMix.mix(SplitMix.mix(seed + SplitMix.GOLDEN * (faultIndex + 1L)) ^ h);
    }
}
