package dev.outlierlab.engine.caddy;

/**
 * An upstream becoming unhealthy ({@code eject}: {@code max_fails} failures remembered) or healthy again
 * ({@code uneject}: a failure forgotten {@code fail_duration} after it happened).
 *
 * @param timeNanos    when
 * @param endpoint     the upstream's index
 * @param endpointName its dial address
 * @param eject        true for unhealthy, false for healthy again
 * @param fails        failures remembered after the change
 */
public record CaddyEvent(long timeNanos, int endpoint, String endpointName, boolean eject, int fails) {
    public String action() {
        return eject ? "eject" : "uneject";
    }

    public String reason() {
        return eject ? "max_fails" : "fail_duration";
    }
}
