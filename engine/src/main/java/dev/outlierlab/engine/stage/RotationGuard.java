package dev.outlierlab.engine.stage;

/**
 * Decides when the stage keeps the whole candidate list although some of it is ejected. The gateway's guard
 * never lets the list become empty ("this skill never returns an error to your caller"); Envoy's is the
 * panic threshold ({@code healthy_panic_threshold}): below it every host is eligible, and at 0 the list may
 * become empty (no healthy upstream).
 */
@FunctionalInterface
public interface RotationGuard {
    /** The gateway's guard: keep everything when removing the ejected would leave nothing. */
    RotationGuard NEVER_EMPTY = (remaining, total) -> remaining == 0;

    /**
     * Whether to keep the whole list of {@code total} candidates when only {@code remaining} are in rotation.
     */
    boolean keepsAll(int remaining, int total);

    /**
     * Envoy's panic rule (lab-model.md section 4): keep all while {@code 100.0 * remaining / total <
     * thresholdPercent}; 0 disables it.
     */
    static RotationGuard panicBelow(double thresholdPercent) {
        return (remaining, total) -> 100.0 * remaining / total < thresholdPercent;
    }
}
