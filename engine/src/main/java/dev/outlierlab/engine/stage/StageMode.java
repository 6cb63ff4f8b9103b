package dev.outlierlab.engine.stage;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.Locale;

/**
 * How the request stage uses a detector (off, shadow or prod). {@code off}: not consulted, outcomes not
 * recorded, nothing recorded. {@code shadow}: outcomes recorded and the detector runs (its ejections are
 * virtual), nothing is removed, and the stage names what prod would have removed. {@code prod}: ejected
 * endpoints leave the candidate list, subject to the guard.
 */
public enum StageMode {
    OFF,
    SHADOW,
    PROD;

    /** The name in configuration and output: {@code off}, {@code shadow}, {@code prod}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether attempts' outcomes are reported to the detector in this mode. */
    public boolean recordsOutcomes() {
        return this != OFF;
    }

    /** The mode named {@code value} under configuration key {@code key}, or an {@link InvalidConfigException}. */
    public static StageMode parse(String key, String value) {
        for (StageMode mode : values()) {
            if (mode.configName().equals(value)) {
                return mode;
            }
        }
        throw new InvalidConfigException(key, "\"" + value + "\"", "one of off, shadow, prod");
    }
}
