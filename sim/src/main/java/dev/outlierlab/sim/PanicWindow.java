package dev.outlierlab.sim;

/** A stretch of time during which requests were sent in panic: from the first such request to the end of the last one's share. */
public record PanicWindow(long startNanos, long endNanos) {}
