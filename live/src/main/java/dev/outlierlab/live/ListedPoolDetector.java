package dev.outlierlab.live;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.stage.RotationGuard;

/**
 * What the gRPC and gateway pool detectors share: the pool's members in the engine detector's order
 * ({@link DetectorMembers}), outcomes and due work handed to that detector through the engine's {@link Detector}
 * contract, and the rule that the candidate list never becomes empty (neither profile has a panic mode to fall
 * back on). Each profile makes its engine detector at its first endpoint and says how it reports decisions.
 */
abstract class ListedPoolDetector implements PoolDetector {
    final DetectorMembers members = new DetectorMembers();

    /** The engine's detector, or null before the first endpoint joins. */
    abstract Detector engine();

    @Override
    public final void apply(Endpoint endpoint, int code, long nowNanos) {
        engine().record(members.index(endpoint), code, nowNanos);
    }

    @Override
    public final void runDue(long nowNanos) {
        Detector d = engine();
        if (d != null) {
            d.runDue(nowNanos);
        }
    }

    @Override
    public final long nextDueNanos() {
        Detector d = engine();
        return d == null ? Long.MAX_VALUE : d.nextDueNanos();
    }

    @Override
    public final RotationGuard guard() {
        return RotationGuard.NEVER_EMPTY;
    }
}
