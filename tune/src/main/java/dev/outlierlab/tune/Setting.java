package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.stage.StageMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * One candidate of the search in words every target shares: which detectors eject and with what thresholds, the
 * interval, the base ejection time and the cap. A detector is off at 0 ({@code consecutive5xx},
 * {@code successRateStdevFactor}, {@code failurePercentageThreshold}). A {@link Target} writes it in its own
 * format and reads it back through the project's reader, so what is simulated is what the control plane would
 * send Envoy (Envoy's {@code DetectorConfig} after the translation), not this record. A candidate of the gateway
 * profile is its own {@link GatewayConfig} ({@code gateway}, the Envoy fields then unused); a gRPC candidate uses the
 * Envoy fields gRPC shares (success rate, failure percentage, interval, ejection time, cap; consecutive 5xx at 0).
 *
 * @param gateway the gateway profile's settings of a gateway candidate, else null
 * @param keepOnPassingCheck {@code successful_active_health_check_uneject_host: false}: a passing active health check
 *                           does not return an ejected host (searched only when the cluster has a health check)
 */
public record Setting(
        long consecutive5xx,
        long successRateStdevFactor,
        long successRateRequestVolume,
        long successRateMinimumHosts,
        long failurePercentageThreshold,
        long failurePercentageRequestVolume,
        long failurePercentageMinimumHosts,
        long intervalNanos,
        long baseEjectionTimeNanos,
        long maxEjectionPercent,
        boolean alwaysEjectOneHost,
        GatewayConfig gateway,
        boolean keepOnPassingCheck) {

    /** A gateway candidate: these gateway settings. */
    public static Setting of(GatewayConfig g) {
        return builder().gateway(g).build();
    }

    /** The setting these Envoy settings express (a detector whose enforcement is 0 is off). */
    public static Setting of(OutlierDetectionConfig c) {
        return Setting.builder()
                .consecutive5xx(
                        c.get(OutlierSetting.ENFORCING_CONSECUTIVE_5XX) > 0 ? c.get(OutlierSetting.CONSECUTIVE_5XX) : 0)
                .successRateStdevFactor(
                        c.get(OutlierSetting.ENFORCING_SUCCESS_RATE) > 0
                                ? c.get(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR)
                                : 0)
                .successRateRequestVolume(c.get(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME))
                .successRateMinimumHosts(c.get(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS))
                .failurePercentageThreshold(
                        c.get(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE) > 0
                                ? Math.max(1, c.get(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD))
                                : 0)
                .failurePercentageRequestVolume(c.get(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME))
                .failurePercentageMinimumHosts(c.get(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS))
                .intervalNanos(c.intervalNanos())
                .baseEjectionTimeNanos(c.baseEjectionTimeNanos())
                .maxEjectionPercent(c.maxEjectionPercent())
                .alwaysEjectOneHost(c.alwaysEjectOneHost())
                .keepOnPassingCheck(!c.successfulActiveHealthCheckUnejectHost())
                .build();
    }

    /** The same setting with a passing health check returning ejected hosts ({@code keep} false) or not. */
    public Setting keepingOnPassingCheck(boolean keep) {
        return toBuilder().keepOnPassingCheck(keep).build();
    }

    /** These settings on top of {@code base} for the newest release (see {@link #applyTo(OutlierDetectionConfig, EnvoyVersion)}). */
    public OutlierDetectionConfig applyTo(OutlierDetectionConfig base) {
        return applyTo(base, EnvoyVersion.DEFAULT);
    }

    /**
     * These settings on top of {@code base} (whose other fields, such as max_ejection_time, jitter and the
     * gateway-failure and local-origin detectors, stay as they are): Envoy's own fields for an Envoy cluster. A field
     * the release does not have ({@code always_eject_one_host} before 1.31, {@code
     * successful_active_health_check_uneject_host} before 1.28) is left unset, so the release's default applies and
     * the file written says nothing Envoy of that release would reject; a field at its default that the base did not
     * set stays unset too.
     */
    public OutlierDetectionConfig applyTo(OutlierDetectionConfig base, EnvoyVersion version) {
        OutlierDetectionConfig.Builder b = base.toBuilder();
        b.set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, consecutive5xx > 0 ? 100 : 0);
        if (consecutive5xx > 0) {
            b.set(OutlierSetting.CONSECUTIVE_5XX, consecutive5xx);
        }
        b.set(OutlierSetting.ENFORCING_SUCCESS_RATE, successRateStdevFactor > 0 ? 100 : 0);
        if (successRateStdevFactor > 0) {
            b.set(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR, successRateStdevFactor);
            b.set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, successRateRequestVolume);
            b.set(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, successRateMinimumHosts);
        }
        b.set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, failurePercentageThreshold > 0 ? 100 : 0);
        if (failurePercentageThreshold > 0) {
            b.set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, failurePercentageThreshold);
            b.set(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, failurePercentageRequestVolume);
            b.set(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, failurePercentageMinimumHosts);
        }
        b.set(OutlierSetting.INTERVAL, intervalNanos);
        b.set(OutlierSetting.BASE_EJECTION_TIME, baseEjectionTimeNanos);
        if (base.maxEjectionTimeNanos() < baseEjectionTimeNanos) {
            b.set(OutlierSetting.MAX_EJECTION_TIME, baseEjectionTimeNanos);
        }
        b.set(OutlierSetting.MAX_EJECTION_PERCENT, maxEjectionPercent);
        setIfTheReleaseHasIt(b, base, version, OutlierSetting.ALWAYS_EJECT_ONE_HOST, alwaysEjectOneHost);
        setIfTheReleaseHasIt(
                b, base, version, OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST, !keepOnPassingCheck);
        return b.build();
    }

    private static void setIfTheReleaseHasIt(
            OutlierDetectionConfig.Builder b,
            OutlierDetectionConfig base,
            EnvoyVersion version,
            OutlierSetting field,
            boolean value) {
        EnvoyVersion added = EnvoyVersion.addedIn(field);
        boolean atDefault = (value ? 1 : 0) == field.defaultValue();
        if ((added != null && !version.atLeast(added)) || (atDefault && !base.isExplicit(field))) {
            b.unset(field);
        } else {
            b.set(field, value);
        }
    }

    /** A short label, e.g. {@code c5xx=5 sr=1.9/100 cap=34% t=30s}, the same for the same setting. */
    public String label() {
        return label(Integer.MAX_VALUE);
    }

    /**
     * The label on a cluster of {@code hosts} hosts: a detector that cannot run there, because the cluster has fewer
     * hosts than its {@code minimum_hosts} (Envoy's {@code DetectorImpl::processSuccessRateEjections} and {@code
     * processFailurePercentageEjections} skip it), says so, e.g. {@code sr=off (4 hosts < min 5)}, as the scorecard
     * says it.
     */
    public String label(int hosts) {
        if (gateway != null) {
            return gatewayLabel(gateway);
        }
        List<String> parts = new ArrayList<>();
        parts.add(consecutive5xx > 0 ? "c5xx=" + consecutive5xx : "c5xx=off");
        parts.add(
                successRateStdevFactor <= 0
                        ? "sr=off"
                        : hosts < successRateMinimumHosts
                                ? "sr=off " + tooFew(hosts, successRateMinimumHosts)
                                : "sr=" + factor(successRateStdevFactor) + "/" + successRateRequestVolume);
        parts.add(
                failurePercentageThreshold <= 0
                        ? "fp=off"
                        : hosts < failurePercentageMinimumHosts
                                ? "fp=off " + tooFew(hosts, failurePercentageMinimumHosts)
                                : "fp=" + failurePercentageThreshold + "%/" + failurePercentageRequestVolume);
        parts.add("every " + Durations.format(intervalNanos));
        parts.add("out " + Durations.format(baseEjectionTimeNanos));
        parts.add("cap " + maxEjectionPercent + "%" + (alwaysEjectOneHost ? "+one" : ""));
        if (keepOnPassingCheck) {
            parts.add("hc-keeps");
        }
        return String.join(" ", parts);
    }

    /** A gateway setting's label, e.g. {@code trip=3 sd=2/5 over 60s min 1pt out 30s}. */
    static String gatewayLabel(GatewayConfig g) {
        return (g.consecutiveFailures() > 0 ? "trip=" + g.consecutiveFailures() : "trip=off") + " sd="
                + BigDecimal.valueOf(g.stdevFactor()).stripTrailingZeros().toPlainString() + "/"
                + g.minRequests() + " over " + Durations.format(g.windowNanos()) + " min "
                + BigDecimal.valueOf(g.minStdevPercent()).stripTrailingZeros().toPlainString() + "pt"
                + (g.peerSet() == PeerSet.ALL ? "" : " vs others") + " out "
                + Durations.format(g.ejectionTimeNanos())
                + (g.mode() == StageMode.PROD ? "" : " (" + g.mode().configName() + ")");
    }

    /** Why a detector with {@code minimum} hosts cannot run on {@code hosts}: {@code (4 hosts < min 5)}. */
    static String tooFew(int hosts, long minimum) {
        return tooFew(hosts, "min", minimum);
    }

    /**
     * Why a detector with {@code minimum} hosts cannot run on {@code hosts}, the minimum named by the file's own key:
     * {@code (4 hosts < minimumHosts 5)} in a gRPC service config's words, {@code (4 hosts < minimum_hosts 5)} in
     * {@code run}'s. The one wording of every label and settings line that says a detector is off for too few hosts.
     */
    public static String tooFew(int hosts, String minimumKey, long minimum) {
        return "(" + hosts + (hosts == 1 ? " host" : " hosts") + " < " + minimumKey + " " + minimum + ")";
    }

    static String factor(long thousandths) {
        return BigDecimal.valueOf(thousandths, 3).stripTrailingZeros().toPlainString();
    }

    /** A builder with every field 0 or false and no gateway settings: every detector off, a passing health check returning hosts. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this one. */
    public Builder toBuilder() {
        return new Builder()
                .consecutive5xx(consecutive5xx)
                .successRateStdevFactor(successRateStdevFactor)
                .successRateRequestVolume(successRateRequestVolume)
                .successRateMinimumHosts(successRateMinimumHosts)
                .failurePercentageThreshold(failurePercentageThreshold)
                .failurePercentageRequestVolume(failurePercentageRequestVolume)
                .failurePercentageMinimumHosts(failurePercentageMinimumHosts)
                .intervalNanos(intervalNanos)
                .baseEjectionTimeNanos(baseEjectionTimeNanos)
                .maxEjectionPercent(maxEjectionPercent)
                .alwaysEjectOneHost(alwaysEjectOneHost)
                .gateway(gateway)
                .keepOnPassingCheck(keepOnPassingCheck);
    }

    /** Collects the fields by name instead of by position; {@link #build()} validates them as the constructor does. */
    public static final class Builder {
        private long consecutive5xx;
        private long successRateStdevFactor;
        private long successRateRequestVolume;
        private long successRateMinimumHosts;
        private long failurePercentageThreshold;
        private long failurePercentageRequestVolume;
        private long failurePercentageMinimumHosts;
        private long intervalNanos;
        private long baseEjectionTimeNanos;
        private long maxEjectionPercent;
        private boolean alwaysEjectOneHost;
        private GatewayConfig gateway;
        private boolean keepOnPassingCheck;

        private Builder() {}

        /** 0: the detector is off. */
        public Builder consecutive5xx(long value) {
            consecutive5xx = value;
            return this;
        }

        /** In thousandths; 0: the detector is off. */
        public Builder successRateStdevFactor(long value) {
            successRateStdevFactor = value;
            return this;
        }

        public Builder successRateRequestVolume(long value) {
            successRateRequestVolume = value;
            return this;
        }

        public Builder successRateMinimumHosts(long value) {
            successRateMinimumHosts = value;
            return this;
        }

        /** 0: the detector is off. */
        public Builder failurePercentageThreshold(long value) {
            failurePercentageThreshold = value;
            return this;
        }

        public Builder failurePercentageRequestVolume(long value) {
            failurePercentageRequestVolume = value;
            return this;
        }

        public Builder failurePercentageMinimumHosts(long value) {
            failurePercentageMinimumHosts = value;
            return this;
        }

        public Builder intervalNanos(long value) {
            intervalNanos = value;
            return this;
        }

        public Builder baseEjectionTimeNanos(long value) {
            baseEjectionTimeNanos = value;
            return this;
        }

        public Builder maxEjectionPercent(long value) {
            maxEjectionPercent = value;
            return this;
        }

        public Builder alwaysEjectOneHost(boolean value) {
            alwaysEjectOneHost = value;
            return this;
        }

        /** A gateway candidate's settings (null: an Envoy-field candidate). */
        public Builder gateway(GatewayConfig value) {
            gateway = value;
            return this;
        }

        public Builder keepOnPassingCheck(boolean value) {
            keepOnPassingCheck = value;
            return this;
        }

        public Setting build() {
            return new Setting(
                    consecutive5xx,
                    successRateStdevFactor,
                    successRateRequestVolume,
                    successRateMinimumHosts,
                    failurePercentageThreshold,
                    failurePercentageRequestVolume,
                    failurePercentageMinimumHosts,
                    intervalNanos,
                    baseEjectionTimeNanos,
                    maxEjectionPercent,
                    alwaysEjectOneHost,
                    gateway,
                    keepOnPassingCheck);
        }
    }
}
