package dev.outlierlab.engine.gateway;

/**
 * Why the gateway ejected an endpoint: the hard trip ({@code consecutive_failures} in a row, no peer
 * comparison) or the statistical rule (success rate below {@code mean - stdev_factor * stdev} of its peers).
 */
public enum EjectionReason {
    CONSECUTIVE("consecutive"),
    SUCCESS_RATE("success_rate");

    private final String outputName;

    EjectionReason(String outputName) {
        this.outputName = outputName;
    }

    public String outputName() {
        return outputName;
    }
}
