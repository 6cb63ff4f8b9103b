package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.RandomSource;

import dev.outlierlab.engine.envoy.detect.FailurePercentageDetector;
import dev.outlierlab.engine.envoy.detect.SuccessRateDetector;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.HostSample;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A cluster's outlier detector with Envoy v1.40.2 semantics, Envoy's {@code DetectorImpl}, driven by explicit
 * time: report outcomes to each host's {@link HostMonitor} at time t, and call {@link #tick(long)} at every
 * multiple of {@code interval}. There is no clock and no thread inside; the caller owns time. Hosts are
 * evaluated in the order they were added. Decisions go to the {@link DetectorListener}; statistics are kept
 * under Envoy's names in {@link #stats()}. Not thread-safe.
 */
public final class OutlierDetector {
    private final OutlierDetectionConfig config;
    private final EjectionPolicy policy;
    private final DetectorListener listener;
    private final OutlierStats stats = new OutlierStats();
    private final List<HostMonitor> hosts = new ArrayList<>();
    private int ejectedCount;

    public OutlierDetector(OutlierDetectionConfig config, RandomSource random, DetectorListener listener) {
        this.config = config;
        this.policy = new EjectionPolicy(config, random);
        this.listener = listener;
    }

    public OutlierDetectionConfig config() {
        return config;
    }

    public OutlierStats stats() {
        return stats;
    }

    /** The monitored hosts, in evaluation order. */
    public List<HostMonitor> hosts() {
        return Collections.unmodifiableList(hosts);
    }

    /** Hosts ejected now ({@code ejections_active}). */
    public int ejectedCount() {
        return ejectedCount;
    }

    /** Starts monitoring a host (Envoy's member-update callback, hosts added). */
    public HostMonitor addHost(String name) {
        HostMonitor monitor = new HostMonitor(name, this);
        hosts.add(monitor);
        return monitor;
    }

    /** Stops monitoring a host; an ejected one no longer counts in {@code ejections_active}. */
    public void removeHost(HostMonitor host) {
        if (!hosts.remove(host)) {
            return;
        }
        if (host.isEjected()) {
            ejectedCount--;
            stats.decActive();
        }
        host.markRemoved();
    }

    /**
     * Envoy's health-checker callback: a successful active health check on a host that active health
     * checking does not currently hold as failed. Returns the host if it is ejected and
     * {@code successful_active_health_check_uneject_host} is on; otherwise does nothing.
     *
     * @return true if the host was returned to rotation
     */
    public boolean onActiveHealthCheckSuccess(HostMonitor host, long nowNanos) {
        if (!config.successfulActiveHealthCheckUnejectHost() || !host.isEjected() || host.isRemoved()) {
            return false;
        }
        uneject(host, nowNanos, UnejectReason.ACTIVE_HEALTH_CHECK);
        return true;
    }

    /**
     * The interval timer, Envoy's {@code onIntervalTimer}: returns hosts whose time is up and swaps every
     * host's buckets; runs success rate and failure percentage for external, then local, origin; then decays
     * the multiplier of hosts back for at least one interval.
     */
    public void tick(long nowNanos) {
        for (HostMonitor host : hosts) {
            if (host.isEjected() && policy.isDue(host, nowNanos)) {
                uneject(host, nowNanos, UnejectReason.EJECTION_TIME_ELAPSED);
            }
            host.swapBuckets();
        }
        // Envoy skips both detectors when the cluster is smaller than both minimums; the samples are still
        // reported to a listener that charts them. Local-origin buckets only fill in split mode.
        boolean detect = hosts.size() >= config.successRateMinimumHosts()
                || hosts.size() >= config.failurePercentageMinimumHosts();
        if (detect || listener.wantsIntervals()) {
            evaluateInterval(Origin.EXTERNAL, nowNanos, detect);
            if (config.splitExternalLocalOriginErrors()) {
                evaluateInterval(Origin.LOCAL, nowNanos, detect);
            }
        }
        for (HostMonitor host : hosts) {
            host.decayMultiplier(nowNanos, config.intervalNanos());
        }
    }

    private void evaluateInterval(Origin origin, long nowNanos, boolean detect) {
        List<HostMonitor> srHosts = new ArrayList<>();
        List<Double> srRates = new ArrayList<>();
        List<HostSample> samples = listener.wantsIntervals() ? new ArrayList<>() : null;
        for (HostMonitor host : hosts) {
            if (host.isEjected()) {
                continue;
            }
            SuccessRateAccumulator acc = host.successRate(origin);
            if (samples != null && acc.judgedRequests() > 0) {
                samples.add(new HostSample(host.name(), acc.judgedRequests(), acc.judgedSuccesses(),
                        acc.judgedSuccessRatePercent()));
            }
            if (SuccessRateDetector.hasVolume(acc.judgedRequests(), config.successRateRequestVolume())) {
                srHosts.add(host);
                srRates.add(acc.judgedSuccessRatePercent());
            }
        }
        SuccessRateDetector.Threshold threshold = null;
        if (detect && SuccessRateDetector.enoughHosts(srHosts.size(), config.successRateMinimumHosts())) {
            threshold = SuccessRateDetector.threshold(srRates, config.successRateStdevFactor());
            EjectionType type = EjectionType.successRate(origin);
            for (int i = 0; i < srHosts.size(); i++) {
                double rate = srRates.get(i);
                if (SuccessRateDetector.isOutlier(rate, threshold)) {
                    HostMonitor host = srHosts.get(i);
                    stats.incDeprecatedSuccessRate();
                    SuccessRateEvidence evidence = new SuccessRateEvidence(rate, host.successRate(origin).judgedRequests(),
                            threshold.mean(), threshold.stdev(), config.successRateStdevFactor(),
                            threshold.threshold(), srHosts.size());
                    offer(host, type, evidence, nowNanos);
                }
            }
        }
        boolean fpRan = detect && evaluateFailurePercentage(origin, nowNanos);
        if (samples != null) {
            listener.onInterval(new IntervalEvaluation(nowNanos, origin, List.copyOf(samples), threshold != null,
                    threshold == null ? Double.NaN : threshold.mean(),
                    threshold == null ? Double.NaN : threshold.stdev(),
                    threshold == null ? Double.NaN : threshold.threshold(), fpRan));
        }
    }

    /**
     * Failure percentage over the hosts not ejected at this point. Envoy builds this list before the
     * success-rate ejections of the same tick and could offer a host just ejected by success rate again; the
     * lab model says "hosts not ejected", so such a host is skipped (see the README).
     */
    private boolean evaluateFailurePercentage(Origin origin, long nowNanos) {
        List<HostMonitor> fpHosts = new ArrayList<>();
        for (HostMonitor host : hosts) {
            if (!host.isEjected()
                    && FailurePercentageDetector.hasVolume(host.successRate(origin).judgedRequests(),
                            config.failurePercentageRequestVolume())) {
                fpHosts.add(host);
            }
        }
        if (!FailurePercentageDetector.enoughHosts(fpHosts.size(), config.failurePercentageMinimumHosts())) {
            return false;
        }
        EjectionType type = EjectionType.failurePercentage(origin);
        for (HostMonitor host : fpHosts) {
            SuccessRateAccumulator acc = host.successRate(origin);
            double rate = acc.judgedSuccessRatePercent();
            if (FailurePercentageDetector.isOutlier(rate, config.failurePercentageThreshold())) {
                offer(host, type, new FailurePercentageEvidence(FailurePercentageDetector.failurePercent(rate),
                        acc.judgedRequests(), config.failurePercentageThreshold(), fpHosts.size()), nowNanos);
            }
        }
        return true;
    }

    /** Envoy's {@code onConsecutiveErrorWorker}, run at once rather than posted to a main thread. */
    void onConsecutiveError(HostMonitor host, EjectionType type, long nowNanos) {
        if (host.isRemoved() || host.isEjected()) {
            return;
        }
        long threshold = switch (type) {
            case CONSECUTIVE_5XX -> config.consecutive5xx();
            case CONSECUTIVE_GATEWAY_FAILURE -> config.consecutiveGatewayFailure();
            default -> config.consecutiveLocalOriginFailure();
        };
        offer(host, type, new ConsecutiveEvidence(host.counter(type).count(), threshold), nowNanos);
        if (type == EjectionType.CONSECUTIVE_5XX) {
            stats.incDeprecatedConsecutive5xx();
        }
        host.counter(type).reset();
    }

    /** Envoy's {@code updateDetectedEjectionStats} then {@code ejectHost}: the cap, the enforcing draw, the ejection. */
    private void offer(HostMonitor host, EjectionType type, DetectionEvidence evidence, long nowNanos) {
        stats.incDetected(type);
        CapCheck cap = policy.checkCap(ejectedCount, hosts.size());
        if (!cap.allowed()) {
            stats.incOverflow();
            emit(nowNanos, host, EventAction.OVERFLOW, type, evidence, cap, null, null);
            return;
        }
        if (type == EjectionType.CONSECUTIVE_5XX || type == EjectionType.SUCCESS_RATE) {
            stats.incDeprecatedTotal();
        }
        Enforcement enforcement = policy.enforce(type);
        if (!enforcement.enforced()) {
            emit(nowNanos, host, EventAction.UNENFORCED, type, evidence, cap, enforcement, null);
            return;
        }
        ejectedCount++;
        stats.incActive();
        stats.incEnforced(type);
        EjectionTime time = policy.ejectionTime(host.multiplier());
        host.markEjected(nowNanos, time.multiplier(), time.jitterNanos());
        emit(nowNanos, host, EventAction.EJECT, type, evidence, cap, enforcement, time);
    }

    private void uneject(HostMonitor host, long nowNanos, UnejectReason reason) {
        ejectedCount--;
        stats.decActive();
        long outFor = nowNanos - host.lastEjectionNanos();
        host.markReturned(nowNanos);
        listener.onEvent(new OutlierEvent(nowNanos, host.name(), EventAction.UNEJECT, null, null, null, null, null,
                reason, outFor, host.numEjections()));
    }

    private void emit(long nowNanos, HostMonitor host, EventAction action, EjectionType type,
            DetectionEvidence evidence, CapCheck cap, Enforcement enforcement, EjectionTime ejection) {
        listener.onEvent(new OutlierEvent(nowNanos, host.name(), action, type, evidence, cap, enforcement, ejection,
                null, 0, host.numEjections()));
    }
}
