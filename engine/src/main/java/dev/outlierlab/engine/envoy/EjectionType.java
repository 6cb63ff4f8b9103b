package dev.outlierlab.engine.envoy;

/**
 * Why a host was detected: Envoy's {@code envoy.data.cluster.v3.OutlierEjectionType}, in its order, with
 * the stat suffix Envoy uses ({@code ejections_detected_<suffix>}, {@code ejections_enforced_<suffix>}) and
 * the {@code enforcing_*} setting that decides whether a detection ejects.
 */
public enum EjectionType {
    CONSECUTIVE_5XX("consecutive_5xx", OutlierSetting.ENFORCING_CONSECUTIVE_5XX, Origin.EXTERNAL),
    CONSECUTIVE_GATEWAY_FAILURE(
            "consecutive_gateway_failure", OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, Origin.EXTERNAL),
    SUCCESS_RATE("success_rate", OutlierSetting.ENFORCING_SUCCESS_RATE, Origin.EXTERNAL),
    CONSECUTIVE_LOCAL_ORIGIN_FAILURE(
            "consecutive_local_origin_failure",
            OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
            Origin.LOCAL),
    SUCCESS_RATE_LOCAL_ORIGIN(
            "local_origin_success_rate", OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE, Origin.LOCAL),
    FAILURE_PERCENTAGE("failure_percentage", OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, Origin.EXTERNAL),
    FAILURE_PERCENTAGE_LOCAL_ORIGIN(
            "local_origin_failure_percentage", OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN, Origin.LOCAL);

    private final String statSuffix;
    private final OutlierSetting enforcingSetting;
    private final Origin origin;

    EjectionType(String statSuffix, OutlierSetting enforcingSetting, Origin origin) {
        this.statSuffix = statSuffix;
        this.enforcingSetting = enforcingSetting;
        this.origin = origin;
    }

    /** The part of Envoy's stat names after {@code ejections_detected_} / {@code ejections_enforced_}. */
    public String statSuffix() {
        return statSuffix;
    }

    public OutlierSetting enforcingSetting() {
        return enforcingSetting;
    }

    public Origin origin() {
        return origin;
    }

    /** The success-rate type for an origin. */
    public static EjectionType successRate(Origin origin) {
        return origin == Origin.EXTERNAL ? SUCCESS_RATE : SUCCESS_RATE_LOCAL_ORIGIN;
    }

    /** The failure-percentage type for an origin. */
    public static EjectionType failurePercentage(Origin origin) {
        return origin == Origin.EXTERNAL ? FAILURE_PERCENTAGE : FAILURE_PERCENTAGE_LOCAL_ORIGIN;
    }
}
