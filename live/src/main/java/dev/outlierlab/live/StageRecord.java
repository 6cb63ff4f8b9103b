package dev.outlierlab.live;

import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.List;

/**
 * The stage record of one request (gateway spec, section 6): written only when the stage acted.
 *
 * @param timeNanos nanoseconds since the pool started
 * @param request   the number of requests the pool had filtered before this one (exact with one thread,
 *                  approximate while several filter at once)
 * @param pool      the pool's name
 * @param mode      the mode that produced it
 * @param action    what it did
 * @param endpoints the endpoints removed (eject), that would have been removed (would_eject), or that were
 *                  ejected but kept by the guard (kept_all), in routing order
 */
public record StageRecord(
        long timeNanos, long request, String pool, StageMode mode, StageAction action, List<String> endpoints) {
    public StageRecord {
        endpoints = List.copyOf(endpoints);
    }
}
