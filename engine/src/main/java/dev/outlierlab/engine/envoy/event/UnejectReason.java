package dev.outlierlab.engine.envoy.event;

/** Why a host came back. */
public enum UnejectReason {
    /** Its ejection time ran out (checked at each interval tick). */
    EJECTION_TIME_ELAPSED,
    /** A successful active health check returned it ({@code successful_active_health_check_uneject_host}). */
    ACTIVE_HEALTH_CHECK,
    /**
     * A failing active health check returned it: before Envoy 1.31 the check-complete callback ignored the check's
     * result while the host was not yet failed by active checking (envoyproxy/envoy issue 32442).
     */
    FAILING_ACTIVE_HEALTH_CHECK
}
