package dev.outlierlab.engine.envoy.event;

import java.util.Locale;

/** What happened to a host offered for ejection, or that it came back. */
public enum EventAction {
    /** Detected, admitted by the cap, enforced: the host left rotation. */
    EJECT,
    /** Detected, but the ejection cap ({@code max_ejection_percent}) refused it; Envoy counts {@code ejections_overflow}. */
    OVERFLOW,
    /** Detected and admitted by the cap, but the {@code enforcing_*} draw said no (Envoy logs {@code enforced: false}). */
    UNENFORCED,
    /** The host returned to rotation. */
    UNEJECT;

    /** The lower-case name used in JSON output. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
