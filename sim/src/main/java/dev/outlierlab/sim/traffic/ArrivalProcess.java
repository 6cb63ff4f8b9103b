package dev.outlierlab.sim.traffic;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RateStep;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * The send times of a scenario's requests, one after another, in nanoseconds. The rate is piecewise constant:
 * {@code traffic.rps} from 0, then each of {@code traffic.steps} from its time. Within a piece of rate
 * {@code r} starting at {@code s}, even arrivals are at {@code s + floor(j * 1e9 / r)} (so without steps,
 * request {@code i} is at {@code floor(i * 1e9 / rps)}, spec section 3, exactly); Poisson arrivals have
 * exponential gaps of mean {@code 1e9 / r} ns, {@code floor(-log1p(-u) * 1e9 / r)} with {@code u} the top 53
 * bits of a SplitMix64 draw over 2^53 and {@code StrictMath.log1p}, from a stream seeded with the scenario's seed
 * XOR a constant (so enforcement and jitter draws are untouched). At a step the Poisson process restarts at the
 * step's time (it is memoryless, so this is the same process). A piece of rate 0 sends nothing.
 */
public final class ArrivalProcess {
    /** Mixed into the scenario's seed for the arrivals' own stream. */
    static final long STREAM = 0x5DEECE66DL;

    private final long durationNanos;
    private final long[] pieceStart;
    private final long[] pieceRps;
    private final boolean poisson;
    private final SeededRandom random;
    private int piece;
    private long indexInPiece;
    private long last;

    public ArrivalProcess(Scenario scenario) {
        LoadSpec load = scenario.load();
        this.durationNanos = scenario.durationNanos();
        List<long[]> pieces = new ArrayList<>();
        pieces.add(new long[] {0, scenario.traffic().rps()});
        for (RateStep s : load.steps()) {
            if (s.atNanos() == 0) {
                pieces.get(0)[1] = s.rps();
            } else {
                pieces.add(new long[] {s.atNanos(), s.rps()});
            }
        }
        this.pieceStart = pieces.stream().mapToLong(p -> p[0]).toArray();
        this.pieceRps = pieces.stream().mapToLong(p -> p[1]).toArray();
        this.poisson = load.arrivals() == Arrivals.POISSON;
        this.random = new SeededRandom(scenario.seed() ^ STREAM);
        this.last = pieceStart[0];
    }

    /** The next send time, or -1 when no request is left before the duration. */
    public long next() {
        while (piece < pieceStart.length) {
            long end = piece + 1 < pieceStart.length ? Math.min(pieceStart[piece + 1], durationNanos) : durationNanos;
            long rps = pieceRps[piece];
            long t = rps == 0 ? end : poisson ? last + gap(rps) : pieceStart[piece] + evenOffset(indexInPiece, rps);
            if (t < end) {
                indexInPiece++;
                last = t;
                return t;
            }
            piece++;
            indexInPiece = 0;
            if (piece >= pieceStart.length || pieceStart[piece] >= durationNanos) {
                return -1;
            }
            last = pieceStart[piece];
        }
        return -1;
    }

    private static long evenOffset(long j, long rps) {
        long q = j / rps;
        long r = j % rps;
        return q * Durations.SECOND + (r * Durations.SECOND) / rps;
    }

    private long gap(long rps) {
        double u = (random.next() >>> 11) * 0x1.0p-53;
        double nanos = -StrictMath.log1p(-u) * Durations.SECOND / rps;
        return nanos >= Durations.MAX_NANOS ? Durations.MAX_NANOS : (long) nanos;
    }
}
