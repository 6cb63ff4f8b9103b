package dev.outlierlab.engine.envoy.event;

/** Why a host came back. */
public enum UnejectReason {
    /** Its ejection time ran out (checked at each interval tick). */
    EJECTION_TIME_ELAPSED,
    /** A successful active health check returned it ({@code successful_active_health_check_uneject_host}). */
    ACTIVE_HEALTH_CHECK
}
