package dev.outlierlab.report.eventlog;

import dev.outlierlab.engine.envoy.EjectionType;
import java.util.Locale;

/**
 * One line of Envoy's outlier event log ({@code event_log_path}), reduced to what a comparison with the lab
 * needs: when (wall clock, from the line's {@code timestamp}), which cluster and host ({@code cluster_name},
 * {@code upstream_url}), what happened and by which detector.
 *
 * @param line       the line number in the file (1 for the first)
 * @param epochNanos the event's {@code timestamp} as nanoseconds since 1970-01-01T00:00:00Z
 * @param type       the detector for an ejection; null for a return (Envoy writes {@code CONSECUTIVE_5XX} there,
 *                   the enum's zero) and for a type this version of the API does not know
 * @param typeName   the {@code type} as the line wrote it, for display
 */
public record EnvoyEvent(
        long line,
        long epochNanos,
        String cluster,
        String host,
        Kind kind,
        EjectionType type,
        String typeName,
        long numEjections) {
    /** What the line says happened. */
    public enum Kind {
        /** {@code action: EJECT, enforced: true}: the host left rotation. */
        EJECT("ejections"),
        /** {@code action: EJECT, enforced: false}: detected, but the {@code enforcing_*} draw said no. */
        UNENFORCED("not enforced"),
        /** {@code action: UNEJECT}: the host returned to rotation. */
        UNEJECT("returns");

        private final String plural;

        Kind(String plural) {
            this.plural = plural;
        }

        /** How reports name a group of them. */
        public String plural() {
            return plural;
        }

        /** The key JSON output uses. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
