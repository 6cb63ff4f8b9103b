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
 * request {@code i} is at {@code floor(i * 1e9 / rps)}, docs/model.md, exactly); Poisson arrivals have
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
    /** The current piece's end, or -1 before it is entered. */
    private long pieceEnd = -1;
    /** Even arrivals: {@code floor(j * 1e9 / r)} for the current piece's j-th request, without dividing. */
    private EvenSendTimes even;

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
            if (pieceEnd < 0) {
                enterPiece();
            }
            long rps = pieceRps[piece];
            long t = rps == 0 ? pieceEnd : poisson ? last + gap(rps) : pieceStart[piece] + even.next();
            if (t < pieceEnd) {
                last = t;
                return t;
            }
            piece++;
            pieceEnd = -1;
            if (piece >= pieceStart.length || pieceStart[piece] >= durationNanos) {
                return -1;
            }
            last = pieceStart[piece];
        }
        return -1;
    }

    /** The current piece's end and, for even arrivals, its send times from the piece's start. */
    private void enterPiece() {
        pieceEnd = piece + 1 < pieceStart.length ? Math.min(pieceStart[piece + 1], durationNanos) : durationNanos;
        even = poisson || pieceRps[piece] == 0 ? null : new EvenSendTimes(pieceRps[piece]);
    }

    private long gap(long rps) {
        double u = (random.next() >>> 11) * 0x1.0p-53;
        double nanos = -StrictMath.log1p(-u) * Durations.SECOND / rps;
        return nanos >= Durations.MAX_NANOS ? Durations.MAX_NANOS : (long) nanos;
    }
}
