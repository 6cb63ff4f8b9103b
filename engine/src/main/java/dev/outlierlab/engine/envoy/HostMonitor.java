package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.envoy.detect.ConsecutiveErrorCounter;

/**
 * The outlier state of one host, Envoy's {@code DetectorHostMonitorImpl}: consecutive-error counters,
 * success-rate buckets for each origin, the ejection multiplier and the times of the last ejection and
 * return, and (Envoy 1.38's {@code detect_degraded_hosts}) the degraded flag with its own multiplier and times. Outcomes are reported here; cluster-wide decisions (cap, enforcement, ticks) belong to
 * {@link OutlierDetector}. Not thread-safe: drive a detector and its hosts from one thread.
 */
public final class HostMonitor {
    private final String name;
    private final OutlierDetector detector;
    private final OutlierDetectionConfig config;
    private final SuccessRateAccumulator external = new SuccessRateAccumulator();
    private final SuccessRateAccumulator local = new SuccessRateAccumulator();
    private final ConsecutiveErrorCounter consecutive5xx = new ConsecutiveErrorCounter();
    private final ConsecutiveErrorCounter consecutiveGatewayFailure = new ConsecutiveErrorCounter();
    private final ConsecutiveErrorCounter consecutiveLocalOriginFailure = new ConsecutiveErrorCounter();

    private boolean ejected;
    private boolean removed;
    private long numEjections;
    private long multiplier;
    private long jitterNanos;
    private long lastEjectionNanos = -1;
    private long lastUnejectionNanos = -1;
    private boolean degraded;
    private long numDegradations;
    private long degradationMultiplier;
    private long lastDegradedNanos = -1;
    private long lastUndegradedNanos = -1;

    HostMonitor(String name, OutlierDetector detector) {
        this.name = name;
        this.detector = detector;
        this.config = detector.config();
    }

    /**
     * Envoy's {@code putHttpResponseCode}: the response counts toward the external success-rate bucket; a
     * 502/503/504 also counts as a gateway failure, any 5xx as a 5xx, anything else resets both counters.
     */
    public void putHttpResponseCode(int code, long nowNanos) {
        if (code >= 500 && code <= 599) {
            external.recordFailure();
            if (code >= 502 && code <= 504) {
                if (consecutiveGatewayFailure.recordError(config.consecutiveGatewayFailure())) {
                    detector.onConsecutiveError(this, EjectionType.CONSECUTIVE_GATEWAY_FAILURE, nowNanos);
                }
            } else {
                consecutiveGatewayFailure.reset();
            }
            if (consecutive5xx.recordError(config.consecutive5xx())) {
                detector.onConsecutiveError(this, EjectionType.CONSECUTIVE_5XX, nowNanos);
            }
        } else {
            external.recordSuccess();
            consecutive5xx.reset();
            consecutiveGatewayFailure.reset();
        }
    }

    /**
     * A response as the HTTP router reports it, with whether it carried {@code x-envoy-degraded}: the code goes to
     * {@link #putHttpResponseCode(int, long)}; with {@code detect_degraded_hosts} a 2xx response carrying the header
     * then marks the host degraded (envoyproxy/envoy pull 41852: "hosts that return 2xx responses with the
     * x-envoy-degraded header are marked as degraded"). The response still counts as a success.
     */
    public void putHttpResponseCode(int code, boolean degradedHeader, long nowNanos) {
        putHttpResponseCode(code, nowNanos);
        if (degradedHeader && code >= 200 && code <= 299 && config.detectDegradedHosts()) {
            detector.onDegradedResponse(this, nowNanos);
        }
    }

    /** Envoy's {@code putResult} without a code. */
    public void putResult(RequestResult result, long nowNanos) {
        putResult(result, -1, nowNanos);
    }

    /**
     * Envoy's {@code putResult(result, code)}. Without split origins a given code (>= 0) is reported as is,
     * otherwise the result is mapped by {@link RequestResult#httpCodeWhenNotSplit()}. With split origins
     * local-origin results feed the local counters; up to Envoy 1.38 the code is ignored, an external failure
     * counts as a 503 and an external success as a 200 plus a local success ({@code putResultWithLocalExternalSplit});
     * from 1.39 (pull 39440) an external result keeps its code (503 or 200 when none) and an external success is no
     * longer a local-origin success.
     */
    public void putResult(RequestResult result, int code, long nowNanos) {
        if (!config.splitExternalLocalOriginErrors()) {
            int mapped = httpCodeOutsideSplit(result, code);
            if (mapped >= 0) {
                putHttpResponseCode(mapped, nowNanos);
            }
            return;
        }
        boolean keepsCodes = detector.version().splitKeepsExternalCodes();
        switch (result) {
            case LOCAL_ORIGIN_CONNECT_SUCCESS, LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL -> localOriginSuccess();
            case LOCAL_ORIGIN_TIMEOUT, LOCAL_ORIGIN_CONNECT_FAILED -> localOriginFailure(nowNanos);
            // pull 39440: an external failure keeps the code it was reported with (503 when none)
            case EXT_ORIGIN_REQUEST_FAILED -> putHttpResponseCode(keepsCodes && code >= 0 ? code : 503, nowNanos);
            case EXT_ORIGIN_REQUEST_SUCCESS -> {
                putHttpResponseCode(keepsCodes && code >= 0 ? code : 200, nowNanos);
                // before pull 39440 an external success also counted as a local-origin success
                if (!keepsCodes) {
                    localOriginSuccess();
                }
            }
        }
    }

    /**
     * {@code n} successful requests at once, exactly as {@code n} times what Envoy's HTTP router reports for one
     * (a connect success, {@code putResult(LOCAL_ORIGIN_CONNECT_SUCCESS)}, then {@code putHttpResponseCode(200)}):
     * {@code n} successes in the external success-rate bucket, both consecutive HTTP counters reset, and in split
     * mode {@code n} local-origin successes with the local-origin counter reset (without split mode a connect
     * success is not reported, Envoy's {@code resultToHttpCode} maps it to nothing). A success never detects a
     * host, so no time is needed and nothing reaches the detector. {@code n = 0} changes nothing. The simulator's
     * event-driven path hands a stretch of evenly spread successes over in one call.
     */
    public void putSuccesses(long n) {
        if (n <= 0) {
            return;
        }
        if (config.splitExternalLocalOriginErrors()) {
            local.recordSuccesses(n);
            consecutiveLocalOriginFailure.reset();
        }
        external.recordSuccesses(n);
        consecutive5xx.reset();
        consecutiveGatewayFailure.reset();
    }

    /**
     * The HTTP code {@link #putResult(RequestResult, int, long)} reports outside split mode: the code given
     * (when {@code >= 0}), else the result's ({@link RequestResult#httpCodeWhenNotSplit()}); -1 reports nothing.
     */
    public static int httpCodeOutsideSplit(RequestResult result, int code) {
        return code >= 0 ? code : result.httpCodeWhenNotSplit();
    }

    /**
     * How many {@link #putHttpResponseCode(int, long)} calls with {@code code} in a row reach no consecutive-error
     * threshold, so that nothing reaches the detector: from the counters now, or ({@code afterSuccess}) from the
     * counters a success leaves (both reset). {@link Long#MAX_VALUE} when none ever would: a code that is not a 5xx
     * resets the counters; an ejected or removed host's detections change nothing (Envoy's
     * {@code onConsecutiveErrorWorker} returns at once and leaves the counter running past its threshold).
     */
    public long quietHttpResponseCodes(int code, boolean afterSuccess) {
        if (code < 500 || code > 599 || ejected || removed) {
            return Long.MAX_VALUE;
        }
        long quiet = afterSuccess
                ? positiveMinusOne(config.consecutive5xx())
                : consecutive5xx.errorsBefore(config.consecutive5xx());
        if (code >= 502 && code <= 504) {
            long threshold = config.consecutiveGatewayFailure();
            quiet = Math.min(
                    quiet,
                    afterSuccess ? positiveMinusOne(threshold) : consecutiveGatewayFailure.errorsBefore(threshold));
        }
        return quiet;
    }

    private static long positiveMinusOne(long threshold) {
        return threshold > 0 ? threshold - 1 : Long.MAX_VALUE;
    }

    /**
     * A host's responses between two events at once: {@code failures} with {@code code} and {@code successes}
     * (code 200), none of the failures reaching the detector, in an order whose last {@code trailing} responses are
     * failures in a row after a success (0: the last is a success). Exactly as those
     * {@link #putHttpResponseCode(int, long)} calls one by one: the bucket counts them; without a success among them
     * the consecutive counters go on from where they were, else they hold the trailing failures. The simulator's
     * event-driven path folds a host's failures this way; it has checked each run of them against
     * {@link #quietHttpResponseCodes}.
     *
     * @throws IllegalStateException when the last run of failures would reach a threshold
     */
    public void putHttpResponseCodes(int code, long failures, long successes, long trailing) {
        if (failures + successes <= 0) {
            return;
        }
        if (successes == 0
                ? failures > quietHttpResponseCodes(code, false)
                : trailing > quietHttpResponseCodes(code, true)) {
            throw new IllegalStateException(failures + " responses " + code + " would reach a threshold of " + name);
        }
        if (code < 500 || code > 599) {
            external.recordSuccesses(failures + successes);
            consecutive5xx.reset();
            consecutiveGatewayFailure.reset();
            return;
        }
        external.recordFailures(failures);
        external.recordSuccesses(successes);
        boolean gateway = code >= 502 && code <= 504;
        if (successes == 0) {
            consecutive5xx.recordErrors(failures);
            if (gateway) {
                consecutiveGatewayFailure.recordErrors(failures);
            } else if (failures > 0) {
                consecutiveGatewayFailure.reset();
            }
        } else {
            consecutive5xx.reset();
            consecutive5xx.recordErrors(trailing);
            consecutiveGatewayFailure.reset();
            if (gateway) {
                consecutiveGatewayFailure.recordErrors(trailing);
            }
        }
    }

    private void localOriginFailure(long nowNanos) {
        local.recordFailure();
        if (consecutiveLocalOriginFailure.recordError(config.consecutiveLocalOriginFailure())) {
            detector.onConsecutiveError(this, EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE, nowNanos);
        }
    }

    private void localOriginSuccess() {
        local.recordSuccess();
        consecutiveLocalOriginFailure.reset();
    }

    public String name() {
        return name;
    }

    /** Whether the host is out of rotation (Envoy's FAILED_OUTLIER_CHECK health flag). */
    public boolean isEjected() {
        return ejected;
    }

    /** Whether the host has been removed from its detector; outcomes reported to it are then ignored. */
    public boolean isRemoved() {
        return removed;
    }

    public long numEjections() {
        return numEjections;
    }

    /** The ejection-time multiplier ({@code ejectTimeBackoff} in Envoy). */
    public long multiplier() {
        return multiplier;
    }

    public long jitterNanos() {
        return jitterNanos;
    }

    /** Time of the last ejection, or -1. */
    public long lastEjectionNanos() {
        return lastEjectionNanos;
    }

    /** Time of the last return to rotation, or -1. */
    public long lastUnejectionNanos() {
        return lastUnejectionNanos;
    }

    /** Whether outlier detection holds the host degraded (Envoy's DEGRADED_OUTLIER_DETECTION health flag). */
    public boolean isDegraded() {
        return degraded;
    }

    public long numDegradations() {
        return numDegradations;
    }

    /** The degradation multiplier ({@code degradeTimeBackoff}), kept apart from the ejection multiplier. */
    public long degradationMultiplier() {
        return degradationMultiplier;
    }

    /** Time of the last degradation mark, or -1. */
    public long lastDegradedNanos() {
        return lastDegradedNanos;
    }

    /** Time the last degradation mark was cleared, or -1. */
    public long lastUndegradedNanos() {
        return lastUndegradedNanos;
    }

    public long consecutive5xx() {
        return consecutive5xx.count();
    }

    public long consecutiveGatewayFailure() {
        return consecutiveGatewayFailure.count();
    }

    public long consecutiveLocalOriginFailure() {
        return consecutiveLocalOriginFailure.count();
    }

    /** The success-rate buckets of one origin. */
    public SuccessRateAccumulator successRate(Origin origin) {
        return origin == Origin.EXTERNAL ? external : local;
    }

    ConsecutiveErrorCounter counter(EjectionType type) {
        return switch (type) {
            case CONSECUTIVE_5XX -> consecutive5xx;
            case CONSECUTIVE_GATEWAY_FAILURE -> consecutiveGatewayFailure;
            case CONSECUTIVE_LOCAL_ORIGIN_FAILURE -> consecutiveLocalOriginFailure;
            default -> throw new IllegalArgumentException("not a consecutive-error type: " + type);
        };
    }

    void markEjected(long nowNanos, long newMultiplier, long newJitterNanos) {
        ejected = true;
        numEjections++;
        lastEjectionNanos = nowNanos;
        multiplier = newMultiplier;
        jitterNanos = newJitterNanos;
    }

    void markReturned(long nowNanos) {
        ejected = false;
        consecutive5xx.reset();
        consecutiveGatewayFailure.reset();
        consecutiveLocalOriginFailure.reset();
        lastUnejectionNanos = nowNanos;
    }

    /** At a tick: one step of the multiplier's decay, if the host has been back for a whole interval. */
    void decayMultiplier(long nowNanos, long intervalNanos) {
        if (!ejected && lastUnejectionNanos >= 0 && nowNanos - lastUnejectionNanos >= intervalNanos && multiplier > 0) {
            multiplier--;
        }
    }

    /** Before Envoy 1.28, at the start of every tick for a host not ejected: one step down, not below zero. */
    void decayMultiplier() {
        if (multiplier > 0) {
            multiplier--;
        }
    }

    void markDegraded(long nowNanos, long newMultiplier, long newJitterNanos) {
        degraded = true;
        numDegradations++;
        lastDegradedNanos = nowNanos;
        degradationMultiplier = newMultiplier;
        // Envoy keeps one jitter per host: a degradation's replaces the ejection's (setJitter)
        jitterNanos = newJitterNanos;
    }

    void markUndegraded(long nowNanos) {
        degraded = false;
        lastUndegradedNanos = nowNanos;
    }

    /** At a tick's end: one step down of the degradation multiplier, once the host has been clear a whole interval. */
    void decayDegradationMultiplier(long nowNanos, long intervalNanos) {
        if (!degraded
                && lastUndegradedNanos >= 0
                && nowNanos - lastUndegradedNanos >= intervalNanos
                && degradationMultiplier > 0) {
            degradationMultiplier--;
        }
    }

    void swapBuckets() {
        external.swap();
        local.swap();
    }

    void markRemoved() {
        removed = true;
    }

    @Override
    public String toString() {
        return name + (ejected ? " (ejected)" : "") + (degraded ? " (degraded)" : "");
    }
}
