package dev.outlierlab.engine.stage;

/**
 * Decides when the stage keeps the whole candidate list although some of it is ejected. The gateway's guard
 * never lets the list become empty ("this skill never returns an error to your caller"); Envoy's is its
 * panic rule ({@code dev.outlierlab.engine.envoy.PanicRule#guard}): in panic every host is eligible, and with the
 * threshold at 0 the list may become empty (no healthy upstream).
 */
@FunctionalInterface
public interface RotationGuard {
    /** The gateway's guard: keep everything when removing the ejected would leave nothing. */
    RotationGuard NEVER_EMPTY = (remaining, total) -> remaining == 0;

    /**
     * Whether to keep the whole list of {@code total} candidates when only {@code remaining} are in rotation.
     */
    boolean keepsAll(int remaining, int total);
}
