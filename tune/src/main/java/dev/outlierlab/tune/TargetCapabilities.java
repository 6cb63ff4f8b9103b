package dev.outlierlab.tune;

import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.Set;

/**
 * What a {@link Target}'s file can say, as a positive set ({@link Can}), and the questions of the search that follow
 * from it: which detectors the target has, which of their fields it can choose, and how its cap admits an ejection
 * (Envoy's rule or grpc-java's). A target answers {@link #can()}; the rest follows from it unless the target says
 * otherwise.
 */
public interface TargetCapabilities {
    /**
     * What a target's file can say, as a positive set: a target can set nothing it does not list, so a new target
     * starts with no detector rather than with Envoy's.
     */
    enum Can {
        /** Envoy's outlier detection fields, written by Envoy or a control plane; runs on Envoy's simulation. */
        ENVOY_FIELDS,
        /** Consecutive-failure detectors. */
        CONSECUTIVE,
        /** Turning consecutive-5xx ejection off. */
        TURN_OFF_CONSECUTIVE,
        /** Choosing success-rate ejection. */
        SUCCESS_RATE,
        /** Failure-percentage ejection's threshold. */
        FAILURE_PERCENTAGE,
        /** Failure percentage's volume and minimum hosts. */
        FAILURE_PERCENTAGE_VOLUME,
        /** always_eject_one_host (from Envoy 1.31). */
        ALWAYS_EJECT_ONE,
        /**
         * The cap is tested before each ejection, so the first is always allowed (grpc-java's
         * {@code ejected / hosts * 100 >= max} stops; its key is {@code maxEjectionPercentage}).
         */
        CAP_BEFORE_EJECTION,
        /** A cap on the hosts out at once ({@code max_ejection_percent} or its equivalent). */
        CAP,
        /** {@code successful_active_health_check_uneject_host} (Envoy 1.28), searched when the cluster has checks. */
        HEALTH_CHECK_RETURN,
        /**
         * The correct action of a scenario is run as an active health check on Envoy's simulation (a target without
         * it scores against its own simulation with the failing hosts' faults taken away).
         */
        HEALTH_CHECK_ORACLE
    }

    /** What the target's file can say. */
    Set<Can> can();

    /** Whether the target's file can say this. */
    default boolean can(Can what) {
        return can().contains(what);
    }

    /** The cap's key in the target's file, for the words of the explanation. */
    default String capKey() {
        return can(Can.CAP_BEFORE_EJECTION) ? "maxEjectionPercentage" : "max_ejection_percent";
    }

    /**
     * Whether another host may be ejected with {@code ejected} of {@code hosts} out under this cap: Envoy's rule of
     * the release ({@link CapRule}), or grpc-java's ({@code ejected / hosts * 100 >= max} stops, so the first ejection
     * is always allowed but for a cap of 0).
     */
    default boolean admits(CapRule rule, int ejected, int hosts, long max, boolean alwaysEjectOne) {
        if (can(Can.CAP_BEFORE_EJECTION)) {
            return !(((double) ejected / hosts) * 100 >= max);
        }
        return rule.allows(ejected, hosts, max, alwaysEjectOne);
    }

    /** Whether the target has consecutive-failure detectors. */
    default boolean hasConsecutive() {
        return can(Can.CONSECUTIVE);
    }

    /** Whether the target can turn consecutive-5xx ejection off. */
    default boolean canTurnOffConsecutive() {
        return can(Can.TURN_OFF_CONSECUTIVE);
    }

    /** Whether the target can set success-rate ejection. */
    default boolean choosesSuccessRate() {
        return can(Can.SUCCESS_RATE);
    }

    /** The success rate a target that cannot choose it runs: {factor (0 off), volume, minimum hosts}. */
    default long[] fixedSuccessRate() {
        return new long[] {0, 100, 5};
    }

    /** Whether the target can set failure-percentage ejection. */
    default boolean hasFailurePercentage() {
        return can(Can.FAILURE_PERCENTAGE);
    }

    /** Whether failure percentage's volume and minimum hosts can be chosen. */
    default boolean choosesFailurePercentageVolume() {
        return can(Can.FAILURE_PERCENTAGE_VOLUME);
    }

    /** Whether the target can set always_eject_one_host (a field from Envoy 1.31; an older Envoy rejects it). */
    default boolean hasAlwaysEjectOne(EnvoyVersion version) {
        return can(Can.ALWAYS_EJECT_ONE) && version.atLeast(EnvoyVersion.addedIn(OutlierSetting.ALWAYS_EJECT_ONE_HOST));
    }
}
