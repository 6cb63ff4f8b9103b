package dev.outlierlab.check;

import java.util.Locale;

/** How bad a finding is; {@code --fail-on} compares against it. Named as SARIF names its levels. */
public enum Severity {
    /** The configuration does not do what it is for (or Envoy rejects it). */
    ERROR,
    /** It works, but in a way that surprises people. */
    WARNING,
    /** Worth knowing; never fails a build. */
    NOTE;

    /** SARIF's {@code level}: error, warning or note. */
    public String level() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a finding of this severity fails a check run with {@code --fail-on threshold}. */
    public boolean atLeast(Severity threshold) {
        return ordinal() <= threshold.ordinal();
    }
}
