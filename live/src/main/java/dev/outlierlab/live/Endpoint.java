package dev.outlierlab.live;

/**
 * One member of a live pool, the handle passed to {@code record} and in candidate lists. It is created by
 * {@link LivePool#add(String)} and compared by identity and accepted only by that pool (another pool refuses it, so a handle can never
 * eject an endpoint of another pool): an endpoint removed and added again under the same
 * name is a new handle, and outcomes still in flight for the old one are discarded. Whether it is ejected
 * is published here by the pool (a volatile read), so filtering needs no lock.
 */
public final class Endpoint {
    private final String name;
    private final int id;
    private final LivePool pool;
    private volatile boolean ejected;
    private volatile boolean removed;
    /**
     * Room between this handle, which every record reads, and the engine's state for the endpoint (created
     * right after it, and written by the draining thread for every outcome), so that they do not share a cache
     * line: otherwise each record on one core would miss while another core drains.
     */
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7, p8;

    Endpoint(String name, int id, LivePool pool) {
        this.name = name;
        this.id = id;
        this.pool = pool;
    }

    /** The pool that created this handle: the only one that accepts it. */
    LivePool pool() {
        return pool;
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
