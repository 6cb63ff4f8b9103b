package dev.outlierlab.engine.envoy.event;

/** One host's judged bucket at an interval tick: what success rate and failure percentage looked at. */
public record HostSample(String host, long requests, long successes, double successRatePercent) {}
