package dev.outlierlab.engine;

/**
 * A {@link Detector} whose ejections are kept in an {@link EndpointEjections}: which endpoints are out, whether
 * any is, the {@link EjectionState#ejectionVersion() version} and the ejection listeners are all answered from
 * that bookkeeping. The subclass keeps its own evidence (windows, counters, multipliers), decides, and records
 * the outcome in the object {@link #ejections()} returns.
 */
public abstract class EjectingDetector implements Detector {
    /** The detector's ejection bookkeeping, the same object for the detector's life. */
    protected abstract EndpointEjections ejections();

    @Override
    public final void addEjectionListener(EjectionListener listener) {
        ejections().addListener(listener);
    }

    @Override
    public final boolean isEjected(int endpoint) {
        return ejections().isEjected(endpoint);
    }

    @Override
    public final boolean anyEjected() {
        return ejections().ejectedCount() > 0;
    }

    @Override
    public final long ejectionVersion() {
        return ejections().version();
    }
}
