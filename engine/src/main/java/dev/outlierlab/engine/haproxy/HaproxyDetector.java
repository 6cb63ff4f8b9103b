package dev.outlierlab.engine.haproxy;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.EjectingDetector;
import dev.outlierlab.engine.EndpointEjections;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A HAProxy backend's server health on the engine's {@link Detector} contract: passive observation
 * ({@code observe}, {@code error-limit}, {@code on-error}) feeding the active checks' health, as in
 * {@code src/check.c} of HAProxy 2.6.
 *
 * <p>Per server: {@code health} from 0 to {@code rise + fall - 1}, UP while {@code health >= rise}; it starts at
 * {@code rise} (up, but one failed check from DOWN, {@code src/server.c}). A failed check does {@code health--}
 * and, below {@code rise}, drops it to 0: DOWN ({@code set_server_check_status}, {@code check_notify_failure}). A
 * passed check does {@code health++} and, at {@code rise}, jumps to the top: UP; it also clears the consecutive
 * errors. Observation ({@code health_adjust}) does nothing unless the server has {@code check}: an OK outcome
 * clears the count, an error adds one, and at {@code error-limit} the {@link OnError} action runs and the count
 * restarts at 0. The only way back UP is active checks: {@code rise} passes in a row.
 *
 * <p>Checks are scheduled as {@code process_chk_conn} does: the first of the {@code i}-th checked server of
 * {@code n} at {@code min(inter) * i / n}, each next one after {@code inter} while fully healthy,
 * {@code downinter} while DOWN, {@code fastinter} in between (either falling back to {@code inter} when unset,
 * {@code srv_getinter}); an {@code on-error} trip pulls the next check to {@code fastinter} from now when that is
 * sooner. Their results come from a {@link HealthEndpoint} (the lab's), or, with none, only from
 * {@link #applyCheck} (a replay of observed checks). The lab's own checks take no time. Driven from one thread.
 *
 * <p>A check that takes time can be voided: a {@code fail-check}, {@code sudden-death} or {@code mark-down} trip
 * sets the check's status to "Health analyze" and its result to failed ({@code set_server_check_status} with
 * {@code HCHK_STATUS_HANA} from {@code __health_adjust}); a check in flight then never reads its answer
 * ({@code tcpcheck_main} and {@code wake_srv_chk} in {@code src/tcpcheck.c} and {@code src/check.c} stop when
 * the result is already set), so its pass neither raises the health nor clears the error count, and its task
 * completes only at the check's timeout (or at {@code fastinter} after the trip, when sooner) before the next check
 * is scheduled ({@code process_chk_conn}). {@code on-error fastinter} sets no status and voids nothing. See
 * {@link #applyCheck(int, boolean, long, long)}.
 */
public final class HaproxyDetector extends EjectingDetector {
    /** What a server's health endpoint answers to an active check at a time. */
    @FunctionalInterface
    public interface HealthEndpoint {
        boolean passes(int server, long nowNanos);
    }

    private final HaproxyServer[] servers;
    private final HealthEndpoint health;
    private final Consumer<HaproxyEvent> listener;
    private final EndpointEjections ejections;
    private final int[] healthOf;
    private final long[] consecutive;
    private final long[] nextCheck;
    private final long[] lastStatusTrip;
    private long checksRun;
    private long checksVoided;
    private long trips;

    public HaproxyDetector(List<HaproxyServer> servers, HealthEndpoint health, Consumer<HaproxyEvent> listener) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("a HAProxy backend needs at least one server");
        }
        this.servers = servers.toArray(new HaproxyServer[0]);
        this.health = health;
        this.listener = listener;
        List<String> names = new ArrayList<>();
        for (HaproxyServer s : servers) {
            names.add(s.address());
        }
        this.ejections = new EndpointEjections(names);
        int n = this.servers.length;
        healthOf = new int[n];
        consecutive = new long[n];
        nextCheck = new long[n];
        lastStatusTrip = new long[n];
        Arrays.fill(lastStatusTrip, Long.MIN_VALUE);
        long minInter = Long.MAX_VALUE;
        int checked = 0;
        for (HaproxyServer s : this.servers) {
            if (s.check()) {
                minInter = Math.min(minInter, s.interNanos());
                checked++;
            }
        }
        int pos = 0;
        for (int i = 0; i < n; i++) {
            healthOf[i] = this.servers[i].rise();
            nextCheck[i] = this.servers[i].check() && health != null ? minInter * pos++ / checked : NEVER;
        }
    }

    /**
     * One outcome of traffic to {@code endpoint} at {@code nowNanos}, judged by its {@code observe} mode (checks
     * due by then run first).
     */
    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        runDue(nowNanos);
        HaproxyServer s = servers[endpoint];
        if (!s.check()) {
            return; // health_adjust: no check task, nothing happens
        }
        switch (s.observe().verdict(outcome)) {
            case GOOD -> consecutive[endpoint] = 0;
            case ERROR -> {
                if (++consecutive[endpoint] >= s.errorLimit()) {
                    trip(endpoint, nowNanos);
                }
            }
            default -> {}
        }
    }

    private void trip(int endpoint, long nowNanos) {
        HaproxyServer s = servers[endpoint];
        trips++;
        switch (s.onError()) {
            case SUDDEN_DEATH -> {
                if (healthOf[endpoint] > s.rise()) {
                    healthOf[endpoint] = s.rise() + 1;
                }
                failCheck(endpoint, nowNanos, HaproxyEvent.Reason.OBSERVED_ERRORS);
            }
            case FAIL_CHECK -> failCheck(endpoint, nowNanos, HaproxyEvent.Reason.OBSERVED_ERRORS);
            case MARK_DOWN -> {
                healthOf[endpoint] = s.rise();
                failCheck(endpoint, nowNanos, HaproxyEvent.Reason.OBSERVED_ERRORS);
            }
            default -> {}
        }
        consecutive[endpoint] = 0;
        if (s.onError() != OnError.FASTINTER) {
            lastStatusTrip[endpoint] = nowNanos;
        }
        if (s.fastinterNanos() > 0 && nextCheck[endpoint] != NEVER) {
            nextCheck[endpoint] = Math.min(nextCheck[endpoint], nowNanos + s.fastinterNanos());
        }
    }

    private void failCheck(int endpoint, long nowNanos, HaproxyEvent.Reason reason) {
        HaproxyServer s = servers[endpoint];
        if (healthOf[endpoint] > 0) {
            healthOf[endpoint]--;
            if (healthOf[endpoint] < s.rise()) {
                healthOf[endpoint] = 0;
            }
        }
        if (healthOf[endpoint] == 0 && !ejections.isEjected(endpoint)) {
            ejections.eject(endpoint, nowNanos);
            listener.accept(new HaproxyEvent(nowNanos, endpoint, s.address(), true, reason, 0));
            ejections.tellEjected(endpoint, nowNanos);
        }
    }

    /** One active check of {@code endpoint} at {@code nowNanos} with its result, taking no time. */
    public void applyCheck(int endpoint, boolean passed, long nowNanos) {
        HaproxyServer s = servers[endpoint];
        checksRun++;
        if (!passed) {
            failCheck(endpoint, nowNanos, HaproxyEvent.Reason.CHECK_FAILED);
            return;
        }
        if (healthOf[endpoint] < s.maxHealth()) {
            healthOf[endpoint]++;
            if (healthOf[endpoint] >= s.rise()) {
                healthOf[endpoint] = s.maxHealth();
            }
        }
        consecutive[endpoint] = 0;
        if (healthOf[endpoint] >= s.rise() && ejections.isEjected(endpoint)) {
            ejections.returnToRotation(endpoint);
            listener.accept(new HaproxyEvent(
                    nowNanos, endpoint, s.address(), false, HaproxyEvent.Reason.CHECK_PASSED, healthOf[endpoint]));
            ejections.tellReturned(endpoint, nowNanos);
        }
    }

    /**
     * One active check of {@code endpoint} started at {@code startedNanos} whose answer is read at
     * {@code nowNanos}: void, without any effect, when a trip of an {@code on-error} mode that sets the check status
     * ({@code fail-check}, {@code sudden-death}, {@code mark-down}) came at or after its start; otherwise as
     * {@link #applyCheck(int, boolean, long)}. Returns whether the check counted.
     */
    public boolean applyCheck(int endpoint, boolean passed, long startedNanos, long nowNanos) {
        if (startedNanos < nowNanos && lastStatusTrip[endpoint] >= startedNanos) {
            checksRun++;
            checksVoided++;
            return false;
        }
        applyCheck(endpoint, passed, nowNanos);
        return true;
    }

    /** The interval to the server's next check now ({@code srv_getinter}). */
    public long interNanos(int endpoint) {
        HaproxyServer s = servers[endpoint];
        if (healthOf[endpoint] == s.maxHealth()) {
            return s.interNanos();
        }
        if (ejections.isEjected(endpoint) && healthOf[endpoint] == 0) {
            return s.downinterNanos() > 0 ? s.downinterNanos() : s.interNanos();
        }
        return s.fastinterNanos() > 0 ? s.fastinterNanos() : s.interNanos();
    }

    @Override
    public long nextDueNanos() {
        long next = NEVER;
        for (long t : nextCheck) {
            next = Math.min(next, t);
        }
        return next;
    }

    /** Runs every check due at or before {@code nowNanos}, in time order (servers in order on a tie). */
    @Override
    public void runDue(long nowNanos) {
        for (int guard = 0; guard < 10_000_000; guard++) {
            int due = -1;
            for (int i = 0; i < nextCheck.length; i++) {
                if (nextCheck[i] <= nowNanos && (due < 0 || nextCheck[i] < nextCheck[due])) {
                    due = i;
                }
            }
            if (due < 0) {
                return;
            }
            long at = nextCheck[due];
            applyCheck(due, health.passes(due, at), at);
            nextCheck[due] = at + interNanos(due);
        }
    }

    @Override
    protected EndpointEjections ejections() {
        return ejections;
    }

    @Override
    public int endpointCount() {
        return servers.length;
    }

    public HaproxyServer server(int endpoint) {
        return servers[endpoint];
    }

    public int health(int endpoint) {
        return healthOf[endpoint];
    }

    public long consecutiveErrors(int endpoint) {
        return consecutive[endpoint];
    }

    public long checksRun() {
        return checksRun;
    }

    /** Checks voided by a trip while they were in flight. */
    public long checksVoided() {
        return checksVoided;
    }

    /** {@code on-error} actions run so far. */
    public long trips() {
        return trips;
    }
}
