package dev.outlierlab.live.httpclient;

/**
 * One attempt of a request to one upstream.
 *
 * @param endpoint the upstream's name
 * @param outcome  the status as digits, or {@code timeout}, {@code connect_failed}, {@code reset}
 * @param failed   whether it counts as a failure (a 5xx or no status)
 * @param nanos    how long the attempt took, on the pool's clock ({@code System.nanoTime} unless the pool was
 *                 built with another)
 */
public record Attempt(String endpoint, String outcome, boolean failed, long nanos) {}
