package dev.outlierlab.sim;

/**
 * What one host received in a replay, and how much of it arrived while the lab had the host ejected: the
 * traffic that ejection would have sent elsewhere. In a replay the observed traffic keeps reaching every host
 * (it was routed by the real proxy), so these counts say what the settings would have changed.
 *
 * @param ejectedNanos total time the host spent ejected, up to the end of the replay
 * @param requestsWhileEjected outcomes of this host reported while it was ejected
 * @param failedWhileEjected of those, the failures (a 5xx or a failing local-origin result)
 */
public record HostTraffic(
        String host,
        long requests,
        long failed,
        long ejectedNanos,
        long requestsWhileEjected,
        long failedWhileEjected) {}
