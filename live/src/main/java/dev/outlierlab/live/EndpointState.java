package dev.outlierlab.live;

/**
 * One endpoint in a {@link PoolSnapshot}.
 *
 * @param name                the endpoint's name
 * @param ejected             held ejected now (virtually, in shadow mode)
 * @param ejections           how many times it has been ejected
 * @param lastEjectionNanos   when it was last ejected, or -1
 * @param lastReturnNanos     when it last came back, or -1
 * @param consecutiveFailures its current run of failures (Envoy: consecutive 5xx)
 * @param multiplier          the ejection-time multiplier (Envoy's backoff; 0 for profiles without one)
 */
public record EndpointState(
        String name,
        boolean ejected,
        long ejections,
        long lastEjectionNanos,
        long lastReturnNanos,
        long consecutiveFailures,
        long multiplier) {}
