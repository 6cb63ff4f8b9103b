package dev.outlierlab.engine.caddy;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.RandomSource;

/**
 * Caddy's {@code lb_policy} over the upstreams a detector leaves available ({@code selectionpolicies.go}):
 * {@code first} takes the first available in order; {@code round_robin} adds one to its counter for each
 * upstream it looks at and takes {@code pool[counter % n]} if available, looking at most {@code n}; {@code random}
 * (Caddy's default) takes one of the available at random (here from the scenario's seed). None available: -1,
 * and Caddy answers 503 "no upstreams available".
 */
public final class CaddySelection {
    /** The modelled policies. */
    public enum Policy {
        RANDOM("random"),
        FIRST("first"),
        ROUND_ROBIN("round_robin");

        private final String word;

        Policy(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        public static Policy of(String word) {
            for (Policy p : values()) {
                if (p.word.equals(word)) {
                    return p;
                }
            }
            return null;
        }
    }

    private final Policy policy;
    private final RandomSource random;
    private int robin;

    public CaddySelection(Policy policy, RandomSource random) {
        this.policy = policy;
        this.random = random;
    }

    /** The upstream Caddy selects now, or -1. */
    public int select(EjectionState state) {
        int n = state.endpointCount();
        switch (policy) {
            case FIRST -> {
                for (int i = 0; i < n; i++) {
                    if (!state.isEjected(i)) {
                        return i;
                    }
                }
                return -1;
            }
            case ROUND_ROBIN -> {
                for (int i = 0; i < n; i++) {
                    robin++;
                    int pick = Integer.remainderUnsigned(robin, n);
                    if (!state.isEjected(pick)) {
                        return pick;
                    }
                }
                return -1;
            }
            default -> {
                int available = 0;
                for (int i = 0; i < n; i++) {
                    available += state.isEjected(i) ? 0 : 1;
                }
                if (available == 0) {
                    return -1;
                }
                int k = (int) random.nextModulo(available);
                for (int i = 0; i < n; i++) {
                    if (!state.isEjected(i) && k-- == 0) {
                        return i;
                    }
                }
                return -1;
            }
        }
    }
}
