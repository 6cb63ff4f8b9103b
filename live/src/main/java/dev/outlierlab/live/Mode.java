package dev.outlierlab.live;

import java.util.Locale;

/**
 * What a live pool does with its detector (the seed's three modes). {@link #OFF}: the detector is not
 * consulted and outcomes are not recorded; {@link #SHADOW}: outcomes are recorded and the detector decides
 * (its ejections are virtual), but no candidate is removed, and a request whose list prod would have
 * shortened gets a {@code would_eject} stage record; {@link #PROD}: ejected endpoints leave the candidate
 * list, unless that would empty it (the guard) or, in the Envoy profile, the pool is in panic.
 */
public enum Mode {
    OFF,
    SHADOW,
    PROD;

    /** The lower-case name used on the command line and in stage records. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode with this name (case-insensitive), or null. */
    public static Mode byName(String name) {
        for (Mode m : values()) {
            if (m.name().equalsIgnoreCase(name)) {
                return m;
            }
        }
        return null;
    }
}
