package dev.outlierlab.live;

import java.util.ArrayList;
import java.util.List;

/**
 * The stage of gateway-profile.md section 5 over the ejections a pool publishes: in prod, ejected
 * candidates leave the list unless that would empty it (the guard: the whole list is kept and recorded as
 * {@code kept_all}) or the pool is in panic; in shadow, nothing leaves, and the candidates prod would have
 * removed are named in a {@code would_eject} record. Lock-free: it reads each candidate's published flag.
 */
final class StageFilter {
    private StageFilter() {
    }

    /** The filtered list and the stage's action, or null action when the stage did nothing. */
    record Outcome(List<Endpoint> candidates, StageAction action, List<String> named) {
    }

    static Outcome filter(List<Endpoint> candidates, Mode mode, boolean panic) {
        int size = candidates.size();
        int ejected = 0;
        for (int i = 0; i < size; i++) {
            if (candidates.get(i).isEjected()) {
                ejected++;
            }
        }
        if (ejected == 0 || mode == Mode.OFF) {
            return new Outcome(candidates, null, List.of());
        }
        List<String> named = new ArrayList<>(ejected);
        List<Endpoint> kept = new ArrayList<>(size - Math.min(ejected, size));
        for (int i = 0; i < size; i++) {
            Endpoint e = candidates.get(i);
            if (e.isEjected()) {
                named.add(e.name());
            } else {
                kept.add(e);
            }
        }
        boolean prodRemovesNothing = panic || kept.isEmpty();
        if (mode == Mode.SHADOW) {
            return prodRemovesNothing ? new Outcome(candidates, null, List.of())
                    : new Outcome(candidates, StageAction.WOULD_EJECT, named);
        }
        if (panic) {
            return new Outcome(candidates, StageAction.PANIC, named);
        }
        if (kept.isEmpty()) {
            return new Outcome(candidates, StageAction.KEPT_ALL, named);
        }
        return new Outcome(List.copyOf(kept), StageAction.EJECT, named);
    }
}
