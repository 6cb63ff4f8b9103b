package dev.outlierlab.live;

/**
 * One member of a live pool, the handle passed to {@code record} and in candidate lists. It is created by
 * {@link LivePool#add(String)} and compared by identity: an endpoint removed and added again under the same
 * name is a new handle, and outcomes still in flight for the old one are discarded. Whether it is ejected
 * is published here by the pool (a volatile read), so filtering needs no lock.
 */
public final class Endpoint {
    private final String name;
    private final int id;
    private volatile boolean ejected;
    private volatile boolean removed;

    Endpoint(String name, int id) {
        this.name = name;
        this.id = id;
    }

    public String name() {
        return name;
    }

    /** The pool-wide number of this handle; never reused within a pool. */
    int id() {
        return id;
    }

    /** Whether the detector holds it ejected now (really in prod, virtually in shadow). */
    public boolean isEjected() {
        return ejected;
    }

    public boolean isRemoved() {
        return removed;
    }

    void publishEjected(boolean value) {
        ejected = value;
    }

    void markRemoved() {
        removed = true;
        ejected = false;
    }

    @Override
    public String toString() {
        return name;
    }
}
