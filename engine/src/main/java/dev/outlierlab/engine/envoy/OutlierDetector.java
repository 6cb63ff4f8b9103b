package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OrderNote;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A cluster's outlier detector with Envoy v1.40.2 semantics (or an older release's, {@link EnvoyVersion}), Envoy's
 * {@code DetectorImpl}, driven by explicit time: report outcomes to each host's {@link HostMonitor} at time t, and
 * call {@link #tick(long)} at every multiple of {@code interval}. There is no clock and no thread inside; the
 * caller owns time. Hosts are evaluated in the order they were added, where Envoy's order is a hash map's;
 * decisions that order could have changed carry an {@link OrderNote}. The interval's success-rate and
 * failure-percentage pass is {@link IntervalPass}. Decisions go to the {@link DetectorListener}; statistics are kept
 * under Envoy's names in {@link #stats()}. Not thread-safe.
 */
public final class OutlierDetector {
    private final OutlierDetectionConfig config;
    private final EnvoyVersion version;
    private final EjectionPolicy policy;
    private final DetectorListener listener;
    private final OutlierStats stats;
    private final List<HostMonitor> hosts = new ArrayList<>();
    private final IntervalPass intervalPass;
    private int ejectedCount;

    /** A detector with the rules of the default Envoy release ({@link EnvoyVersion#DEFAULT}). */
    public OutlierDetector(OutlierDetectionConfig config, RandomSource random, DetectorListener listener) {
        this(config, random, listener, EnvoyVersion.DEFAULT);
    }

    public OutlierDetector(
            OutlierDetectionConfig config, RandomSource random, DetectorListener listener, EnvoyVersion version) {
        this.config = config;
        this.version = version;
        this.stats = new OutlierStats(version.hasDegradationCounter());
        this.policy = new EjectionPolicy(config, random, version);
        this.listener = listener;
        this.intervalPass = new IntervalPass(config, stats, listener, hosts, this::offer);
    }

    /** The Envoy release whose rules this detector follows. */
    public EnvoyVersion version() {
        return version;
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

    /** Hosts outlier detection holds degraded now (Envoy 1.38's {@code detect_degraded_hosts}); none are ejected by it. */
    public int degradedCount() {
        int n = 0;
        for (HostMonitor h : hosts) {
            if (h.isDegraded()) {
                n++;
            }
        }
        return n;
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

    /** {@link #onActiveHealthCheck} for a passing check. */
    public boolean onActiveHealthCheckSuccess(HostMonitor host, long nowNanos) {
        return onActiveHealthCheck(host, true, nowNanos);
    }

    /**
     * Envoy's health-checker callback, run after each active health check of a host that active health checking
     * does not (now) hold as failed. Returns the host if it is ejected, {@code successful_active_health_check_uneject_host}
     * is on and the check passed; before Envoy 1.31 the callback ignored the check's result, so a failing check
     * below {@code unhealthy_threshold} returned the host too.
     *
     * @return true if the host was returned to rotation
     */
    public boolean onActiveHealthCheck(HostMonitor host, boolean passed, long nowNanos) {
        if (!config.successfulActiveHealthCheckUnejectHost()
                || !host.isEjected()
                || host.isRemoved()
                || (!passed && !version.failingHealthCheckUnejects())) {
            return false;
        }
        uneject(host, nowNanos, passed ? UnejectReason.ACTIVE_HEALTH_CHECK : UnejectReason.FAILING_ACTIVE_HEALTH_CHECK);
        return true;
    }

    /**
     * The interval timer, Envoy's {@code onIntervalTimer}: clears degraded hosts and returns ejected hosts whose time
     * is up and swaps every host's buckets; runs success rate and failure percentage for external, then local, origin; then decays
     * the multiplier of hosts back for at least one interval. Before Envoy 1.28 (pull 29711)
     * {@code checkHostForUneject} instead decremented the multiplier at the start of every tick for every host not
     * ejected at that moment, however recently it had returned.
     */
    public void tick(long nowNanos) {
        boolean decayFirst = version.decaysMultiplierAtEveryTick();
        for (HostMonitor host : hosts) {
            if (!host.isEjected()) {
                if (decayFirst) {
                    host.decayMultiplier();
                }
            } else if (policy.isDue(host, nowNanos)) {
                uneject(host, nowNanos, UnejectReason.EJECTION_TIME_ELAPSED);
            }
            // checkHostForUndegrade runs right after checkHostForUneject, host by host
            if (host.isDegraded() && policy.isDegradationDue(host, nowNanos)) {
                undegrade(host, nowNanos);
            }
            host.swapBuckets();
        }
        // Envoy skips both detectors when the cluster is smaller than both minimums; the samples are still
        // reported to a listener that charts them. Local-origin buckets only fill in split mode.
        boolean detect = hosts.size() >= config.successRateMinimumHosts()
                || hosts.size() >= config.failurePercentageMinimumHosts();
        if (detect || listener.wantsIntervals()) {
            intervalPass.evaluate(Origin.EXTERNAL, nowNanos, detect);
            if (config.splitExternalLocalOriginErrors()) {
                intervalPass.evaluate(Origin.LOCAL, nowNanos, detect);
            }
        }
        if (!decayFirst) {
            for (HostMonitor host : hosts) {
                host.decayMultiplier(nowNanos, config.intervalNanos());
                host.decayDegradationMultiplier(nowNanos, config.intervalNanos());
            }
        }
    }

    /**
     * A 2xx response with {@code x-envoy-degraded} under {@code detect_degraded_hosts} (Envoy 1.38, envoyproxy/envoy
     * pull 41852), Envoy's {@code DetectorImpl::setHostDegradedMainThread}: a host not degraded yet is marked, with
     * no cap and no enforcing draw, and counted in {@code ejections_detected_degradation}; it stays in rotation and
     * out of {@code ejections_active}. The jitter is drawn again and stored in the host's one jitter, which its
     * ejection shares ({@code setJitter}); its own multiplier ({@code degradeTimeBackoff}) grows as an ejection's
     * does. An ejected host is marked too (it only gets traffic in panic); ejection keeps priority in the balancer,
     * where an ejected host is unhealthy whatever else it is.
     */
    void onDegradedResponse(HostMonitor host, long nowNanos) {
        if (host.isRemoved() || host.isDegraded()) {
            return;
        }
        stats.incDetectedDegradation();
        EjectionTime time = policy.ejectionTime(host.degradationMultiplier());
        host.markDegraded(nowNanos, time.multiplier(), time.jitterNanos());
        listener.onDegradation(new DegradationEvent(
                nowNanos,
                host.name(),
                true,
                host.numDegradations(),
                time.multiplier(),
                time.durationNanos(),
                host.numEjections()));
    }

    /**
     * At a tick, a degraded host whose time is up is cleared, Envoy's {@code checkHostForUndegrade}:
     * {@code min(base * degradeTimeBackoff, max) + jitter <= now - lastDegradedTime}. An active health check never
     * clears it.
     */
    private void undegrade(HostMonitor host, long nowNanos) {
        long degradedFor = nowNanos - host.lastDegradedNanos();
        host.markUndegraded(nowNanos);
        listener.onDegradation(new DegradationEvent(
                nowNanos,
                host.name(),
                false,
                host.numDegradations(),
                host.degradationMultiplier(),
                degradedFor,
                host.numEjections()));
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
        listener.onEvent(
                offer(host, type, new ConsecutiveEvidence(host.counter(type).count(), threshold), nowNanos));
        if (type == EjectionType.CONSECUTIVE_5XX) {
            stats.incDeprecatedConsecutive5xx();
        }
        host.counter(type).reset();
    }

    /**
     * Envoy's {@code updateDetectedEjectionStats} then {@code ejectHost}: the cap, the enforcing draw, the ejection.
     * Returns the event for the caller to emit. A host offered while already ejected (failure percentage after
     * success rate in one tick) is treated as Envoy's release build treats it: counted again in
     * {@code ejections_active}, its ejection count, time, jitter and multiplier moved on again.
     */
    private OutlierEvent offer(HostMonitor host, EjectionType type, DetectionEvidence evidence, long nowNanos) {
        boolean again = host.isEjected();
        stats.incDetected(type);
        CapCheck cap = policy.checkCap(ejectedCount, hosts.size());
        if (!cap.allowed()) {
            stats.incOverflow();
            return event(nowNanos, host, EventAction.OVERFLOW, type, evidence, cap, null, null, again);
        }
        if (type == EjectionType.CONSECUTIVE_5XX || type == EjectionType.SUCCESS_RATE) {
            stats.incDeprecatedTotal();
        }
        Enforcement enforcement = policy.enforce(type);
        if (!enforcement.enforced()) {
            return event(nowNanos, host, EventAction.UNENFORCED, type, evidence, cap, enforcement, null, again);
        }
        ejectedCount++;
        stats.incActive();
        stats.incEnforced(type);
        EjectionTime time = policy.ejectionTime(host.multiplier());
        host.markEjected(nowNanos, time.multiplier(), time.jitterNanos());
        return event(nowNanos, host, EventAction.EJECT, type, evidence, cap, enforcement, time, again);
    }

    private void uneject(HostMonitor host, long nowNanos, UnejectReason reason) {
        ejectedCount--;
        stats.decActive();
        long outFor = nowNanos - host.lastEjectionNanos();
        host.markReturned(nowNanos);
        listener.onEvent(new OutlierEvent(
                nowNanos,
                host.name(),
                EventAction.UNEJECT,
                null,
                null,
                null,
                null,
                null,
                reason,
                outFor,
                host.numEjections(),
                false,
                null));
    }

    private static OutlierEvent event(
            long nowNanos,
            HostMonitor host,
            EventAction action,
            EjectionType type,
            DetectionEvidence evidence,
            CapCheck cap,
            Enforcement enforcement,
            EjectionTime ejection,
            boolean again) {
        return new OutlierEvent(
                nowNanos,
                host.name(),
                action,
                type,
                evidence,
                cap,
                enforcement,
                ejection,
                null,
                0,
                host.numEjections(),
                again,
                null);
    }
}
