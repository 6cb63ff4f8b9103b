package dev.outlierlab.engine.nginx;

/**
 * One decision of an nginx worker's round robin with its numbers.
 *
 * @param timeNanos          when: the failure that took the peer out, or the second from which it may be
 *                           selected again
 * @param worker             the worker process whose copy of the peers decided (0 with {@code zone})
 * @param endpoint           the peer's index in the upstream's order
 * @param endpointName       the server's address as written
 * @param action             out or back
 * @param reason             why, in nginx's terms
 * @param fails              the peer's {@code fails} after the decision
 * @param maxFails           its {@code max_fails}
 * @param returnAtNanos      for an ejection: the start of the second {@code checked + fail_timeout + 1}, when one
 *                           probe may be let through
 */
public record NginxEvent(
        long timeNanos,
        int worker,
        int endpoint,
        String endpointName,
        Action action,
        Reason reason,
        long fails,
        int maxFails,
        long returnAtNanos) {

    /** Out of selection or back in it. */
    public enum Action {
        EJECT("eject"),
        UNEJECT("uneject");

        private final String outputName;

        Action(String outputName) {
            this.outputName = outputName;
        }

        public String outputName() {
            return outputName;
        }
    }

    /** Why, in nginx's terms. */
    public enum Reason {
        /** {@code max_fails} failures, none forgotten: nginx logs "upstream server temporarily disabled". */
        MAX_FAILS("max_fails"),
        /** The probe let through after {@code fail_timeout} failed: out for another {@code fail_timeout}. */
        PROBE_FAILED("probe_failed"),
        /** {@code fail_timeout} seconds have passed since the last failure: one probe request may go. */
        FAIL_TIMEOUT("fail_timeout");

        private final String outputName;

        Reason(String outputName) {
            this.outputName = outputName;
        }

        public String outputName() {
            return outputName;
        }
    }
}
