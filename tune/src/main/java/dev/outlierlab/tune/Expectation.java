package dev.outlierlab.tune;

import java.util.Locale;

/**
 * The correct action a suite scenario is scored against: eject the failing hosts (its benefit counts), eject
 * nothing (any ejection is false), or eject at most the degraded host (an overload, where more ejections add
 * failures on the hosts that are left).
 */
public enum Expectation {
    EJECT("eject the failing hosts"),
    NONE("eject nothing"),
    AT_MOST("eject at most the degraded host");

    private final String words;

    Expectation(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }

    /** The name in JSON and suite files, e.g. {@code at_most}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
