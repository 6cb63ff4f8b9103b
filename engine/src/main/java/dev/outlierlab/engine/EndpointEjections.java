package dev.outlierlab.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ejection bookkeeping that the gateway's and the gRPC profile's detectors keep the same way: the endpoints'
 * names in routing order, which are ejected now and since when (grpc-java's {@code EndpointTracker.ejected} and
 * {@code ejectionTimeNanos}), how many are out, the {@link EjectionState#ejectionVersion() version} that changes
 * with every ejection, return and membership change, and the {@link EjectionListener}s told of each ejection and
 * return. Each detector keeps its own evidence (windows, counters, multipliers) and decides; this records the
 * outcome. Driven from the detector's one thread.
 */
public final class EndpointEjections {
    private final List<EjectionListener> listeners = new ArrayList<>();
    private String[] names;
    private boolean[] ejected;
    private long[] ejectedAtNanos;
    private int ejectedCount;
    private long version;

    public EndpointEjections(List<String> endpoints) {
        this.names = endpoints.toArray(new String[0]);
        this.ejected = new boolean[names.length];
        this.ejectedAtNanos = new long[names.length];
    }

    /** The endpoints now. */
    public int size() {
        return names.length;
    }

    public String name(int endpoint) {
        return names[endpoint];
    }

    public boolean isEjected(int endpoint) {
        return ejected[endpoint];
    }

    /** Endpoints ejected now. */
    public int ejectedCount() {
        return ejectedCount;
    }

    /** Changes at every ejection, return and membership change. */
    public long version() {
        return version;
    }

    /** When the endpoint was last ejected (meaningful once it has been). */
    public long ejectedAtNanos(int endpoint) {
        return ejectedAtNanos[endpoint];
    }

    public void addListener(EjectionListener listener) {
        listeners.add(listener);
    }

    /**
     * Takes the endpoint out at {@code nowNanos}. One already out only gets the new time (grpc-java's second
     * ejection of an endpoint in one sweep): it is not counted again and the version stays. The listeners are
     * told by {@link #tellEjected}, after the detector has reported its own event.
     */
    public void eject(int endpoint, long nowNanos) {
        if (!ejected[endpoint]) {
            ejected[endpoint] = true;
            ejectedCount++;
            version++;
        }
        ejectedAtNanos[endpoint] = nowNanos;
    }

    /** Puts an ejected endpoint back in rotation; the listeners are told by {@link #tellReturned}. */
    public void returnToRotation(int endpoint) {
        ejected[endpoint] = false;
        ejectedCount--;
        version++;
    }

    public void tellEjected(int endpoint, long nowNanos) {
        for (EjectionListener l : listeners) {
            l.onEjected(endpoint, nowNanos);
        }
    }

    public void tellReturned(int endpoint, long nowNanos) {
        for (EjectionListener l : listeners) {
            l.onReturned(endpoint, nowNanos);
        }
    }

    /** Adds an endpoint at the end of the order, not ejected; returns its index. */
    public int add(String name) {
        version++;
        int n = names.length;
        names = Arrays.copyOf(names, n + 1);
        names[n] = name;
        ejected = Arrays.copyOf(ejected, n + 1);
        ejectedAtNanos = Arrays.copyOf(ejectedAtNanos, n + 1);
        return n;
    }

    /**
     * Removes the endpoint at {@code endpoint} (those after it move down by one): an ejected one leaves without a
     * return and stops counting as ejected.
     */
    public void remove(int endpoint) {
        version++;
        if (ejected[endpoint]) {
            ejectedCount--;
        }
        names = EndpointSlots.without(names, endpoint, new String[names.length - 1]);
        ejected = EndpointSlots.without(ejected, endpoint);
        ejectedAtNanos = EndpointSlots.without(ejectedAtNanos, endpoint);
    }
}
