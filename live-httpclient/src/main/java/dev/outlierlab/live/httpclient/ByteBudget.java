package dev.outlierlab.live.httpclient;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A bound on the bytes of upstream answers held in memory at once by one {@link FailoverClient}: each chunk
 * of a body being read is reserved before it is kept, and released when the client lets go of the answer. A
 * reservation that would pass the bound fails, and the request fails with a {@link ProxyOverloadedException}
 * instead of the process running out of memory (which would otherwise look like upstream resets).
 */
public final class ByteBudget {
    private final long bound;
    private final AtomicLong held = new AtomicLong();

    /** At most {@code bound} bytes held at once (1 or more). */
    public ByteBudget(long bound) {
        if (bound < 1) {
            throw new IllegalArgumentException("byte bound " + bound + " must be 1 or more");
        }
        this.bound = bound;
    }

    boolean reserve(long n) {
        while (true) {
            long now = held.get();
            if (now + n > bound) {
                return false;
            }
            if (held.compareAndSet(now, now + n)) {
                return true;
            }
        }
    }

    /** Gives back {@code n} bytes reserved for an answer, once it is sent or dropped. */
    public void release(long n) {
        held.addAndGet(-n);
    }

    public long bound() {
        return bound;
    }

    /** Bytes held now. */
    public long held() {
        return held.get();
    }
}
