package dev.outlierlab.engine.haproxy;

/**
 * A HAProxy server going DOWN ({@code eject}) or UP ({@code uneject}), with why.
 *
 * @param timeNanos    when
 * @param endpoint     the server's index in the backend
 * @param endpointName its address
 * @param down         true for DOWN, false for UP
 * @param reason       what did it
 * @param health       the server's check health after the change
 */
public record HaproxyEvent(long timeNanos, int endpoint, String endpointName, boolean down, Reason reason, int health) {

    public String action() {
        return down ? "eject" : "uneject";
    }

    /** What changed the server's state. */
    public enum Reason {
        /** {@code error-limit} consecutive errors seen by {@code observe}, and the {@code on-error} action. */
        OBSERVED_ERRORS("observe"),
        /** An active check failed. */
        CHECK_FAILED("check_failed"),
        /** An active check passed, the {@code rise}-th in a row. */
        CHECK_PASSED("check_passed");

        private final String outputName;

        Reason(String outputName) {
            this.outputName = outputName;
        }

        public String outputName() {
            return outputName;
        }
    }
}
