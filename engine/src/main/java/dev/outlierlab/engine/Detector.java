package dev.outlierlab.engine;

import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.engine.stage.RotationGuard;

/**
 * The contract every detector profile implements (Envoy's, the gateway's, grpc-java's, ...): take outcomes
 * ({@link OutcomeRecorder}), run work due at a time ({@link ScheduledWork}), say what is ejected
 * ({@link EjectionState}) and tell listeners of each ejection and return ({@link EjectionListener}). The
 * simulator, the request stage and the live wrapper know this contract and not a profile; a profile is found by
 * name in {@link Profiles}. Implementations are driven from one thread with
 * non-decreasing time and allocate nothing per outcome.
 *
 * <p>"In or out" is all the contract says to the request path. Where a profile's other rules live:
 * <ul>
 *   <li><b>Counting and forgetting failures</b> is the detector's: consecutive counters, windows by interval, a
 *       sliding window that forgets each failure on its own (Caddy's passive checks: a failure counted and
 *       forgotten {@code fail_duration} later, {@code healthchecks.go} {@code countFailure}), failures counted in
 *       whole seconds (nginx's {@code ngx_time()}). Forgetting at a time is {@link ScheduledWork} work: the
 *       detector reports when it is next due and runs it in {@link ScheduledWork#runDue}.</li>
 *   <li><b>A return only through a health check</b> (HAProxy's {@code observe} with {@code on-error}: a server
 *       marked down comes back only after {@code rise} passing checks, {@code check.c} {@code check_notify_success})
 *       is the detector's too: it has no return time of its own, and the simulator's active health checker calls
 *       the detector's health-check entry point with each result (as Envoy's {@code health_checks} do).</li>
 *   <li><b>A per-endpoint weight penalty</b> that is not "out" (nginx's {@code effective_weight} drop by
 *       {@code weight / max_fails} on each failure, {@code ngx_http_upstream_free_round_robin_peer}) and a probe
 *       let through after {@code fail_timeout} (nginx's {@code checked = now} on selection) belong to a router
 *       beside the detector: the router asks the detector who is ejected and keeps its own weights; the detector
 *       stays a yes/no per endpoint.</li>
 *   <li><b>"Every peer failed"</b> answers are the {@link RotationGuard rotation guard}'s:
 *       keep the whole list (the gateway's never-empty, Envoy's panic threshold), or let the list become empty so
 *       that the caller is answered 502 (nginx's "no live upstreams") or 503 (HAProxy's, Caddy's "no upstreams
 *       available"). A reset of every peer's failures when all are out is a detector rule run when the guard
 *       trips.</li>
 * </ul>
 */
public interface Detector extends OutcomeRecorder, ScheduledWork, EjectionState {
    /** Adds a listener for ejections and returns; listeners are called in the order they were added. */
    void addEjectionListener(EjectionListener listener);
}
