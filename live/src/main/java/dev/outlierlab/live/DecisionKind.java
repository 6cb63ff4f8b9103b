package dev.outlierlab.live;

import java.util.Locale;

/** What the detector decided about one endpoint. */
public enum DecisionKind {
    /** It was ejected (virtually, in shadow mode). */
    EJECT,
    /** It came back into rotation. */
    RETURN,
    /** It was detected, but the profile's rules refused the ejection (Envoy: the cap or the enforcing draw). */
    REFUSED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
