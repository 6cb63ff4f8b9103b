package dev.outlierlab.live;

import java.util.Locale;

/**
 * What the stage did to one request's candidate list (the gateway spec, section 5). {@link #PANIC} is the
 * Envoy profile's: the pool's healthy share is below its panic threshold, so every candidate is kept, as
 * Envoy's load balancer does.
 */
public enum StageAction {
    /** Prod: ejected endpoints were removed from the list. */
    EJECT,
    /** Prod: every candidate was ejected, and the guard kept them all rather than fail the request. */
    KEPT_ALL,
    /** Shadow: prod would have removed these endpoints; nothing was removed. */
    WOULD_EJECT,
    /** Prod, Envoy profile: the pool is in panic, so ejected candidates were kept. */
    PANIC;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
