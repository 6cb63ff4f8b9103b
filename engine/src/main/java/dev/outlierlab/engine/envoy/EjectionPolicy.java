package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;

/**
 * The cluster-wide rules that turn a detection into an ejection, from Envoy's {@code ejectHost},
 * {@code enforceEjection} and {@code checkHostForUneject}: the percentage cap (with
 * {@code always_eject_one_host}), the {@code enforcing_*} draw, and the ejection time with its multiplier,
 * maximum and jitter.
 */
public final class EjectionPolicy {
    private final OutlierDetectionConfig config;
    private final RandomSource random;
    private final CapRule capRule;

    /** The policy of the default Envoy release ({@link EnvoyVersion#DEFAULT}). */
    public EjectionPolicy(OutlierDetectionConfig config, RandomSource random) {
        this(config, random, EnvoyVersion.DEFAULT);
    }

    public EjectionPolicy(OutlierDetectionConfig config, RandomSource random, EnvoyVersion version) {
        this.config = config;
        this.random = random;
        this.capRule = version.capRule();
    }

    /**
     * The cap: may one more host go, with {@code ejectedNow} out of {@code hosts} already ejected? By the release's
     * {@link CapRule}; from 1.28 {@code 100 * (ejectedNow + 1) / hosts <= min(max_ejection_percent, 100)} or
     * {@code always_eject_one_host} with nothing ejected.
     */
    public CapCheck checkCap(int ejectedNow, int hosts) {
        double percent = capRule.percent(ejectedNow, hosts);
        boolean allowed = capRule.allows(ejectedNow, hosts, config.maxEjectionPercent(), config.alwaysEjectOneHost());
        return new CapCheck(
                ejectedNow, hosts, percent, config.maxEjectionPercent(), config.alwaysEjectOneHost(), allowed, capRule);
    }

    /** The enforcing draw for a detection of this type; draws only for percentages strictly between 0 and 100. */
    public Enforcement enforce(EjectionType type) {
        long percent = Math.min(config.enforcingPercent(type), 100);
        if (percent == 0 || percent == 100) {
            return new Enforcement(percent, -1, percent == 100);
        }
        long draw = random.nextModulo(100);
        return new Enforcement(percent, draw, draw < percent);
    }

    /**
     * The ejection time for a host whose multiplier is {@code multiplierBefore}: draws the jitter
     * ({@code draw mod (jitter_ms + 1)} milliseconds), then grows the multiplier by one if
     * {@code multiplier * base < max + base}.
     */
    public EjectionTime ejectionTime(long multiplierBefore) {
        long base = config.baseEjectionTimeNanos();
        long max = config.maxEjectionTimeNanos();
        long jitterMs = random.nextModulo(config.maxEjectionTimeJitterNanos() / Durations.MILLISECOND + 1);
        long jitter = jitterMs * Durations.MILLISECOND;
        long multiplier = multiplierBefore;
        if (Durations.saturatingMultiply(multiplier, base) < Durations.saturatingAdd(max, base)) {
            multiplier++;
        }
        return new EjectionTime(multiplier, base, max, jitter, outFor(multiplier, jitter));
    }

    /** {@code min(base * multiplier, max) + jitter}. */
    public long outFor(long multiplier, long jitterNanos) {
        long scaled = Math.min(
                Durations.saturatingMultiply(config.baseEjectionTimeNanos(), multiplier),
                config.maxEjectionTimeNanos());
        return Durations.saturatingAdd(scaled, jitterNanos);
    }

    /**
     * Whether a degraded host's time is up at {@code nowNanos}: the same test as for an ejection, on the host's own
     * degradation multiplier and the host's one jitter ({@code checkHostForUndegrade}: {@code min(base *
     * degradeTimeBackoff, max) + jitter <= now - lastDegradedTime}, envoyproxy/envoy pull 41852).
     */
    public boolean isDegradationDue(HostMonitor host, long nowNanos) {
        return outFor(host.degradationMultiplier(), host.jitterNanos()) <= nowNanos - host.lastDegradedNanos();
    }

    /** Whether an ejected host's time is up at {@code nowNanos}. */
    public boolean isDue(HostMonitor host, long nowNanos) {
        return outFor(host.multiplier(), host.jitterNanos()) <= nowNanos - host.lastEjectionNanos();
    }
}
