package dev.outlierlab.engine.nginx;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.EjectingDetector;
import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.nginx.NextUpstream.PeerState;
import java.util.Arrays;

/**
 * One nginx worker's passive checks (or the whole server's, with {@code zone}) on the engine's {@link Detector}
 * contract: a {@link RoundRobinPeers} copy, the request's tries ({@link NextUpstream}) and the events.
 *
 * <p>An endpoint is ejected from the failure that leaves {@code fails >= max_fails} (nginx: "upstream server
 * temporarily disabled") until the start of the second {@code checked + fail_timeout + 1}, when
 * {@link #runDue} returns it: from then one request may be let through (the probe). Selecting it moves
 * {@code checked} to now, which holds every other request off until the probe's outcome: a success clears the
 * count, a failure takes it out for another {@code fail_timeout} ({@code probe_failed}). The lab's attempts have
 * no duration, so the probe's outcome comes at its selection and the hold is not seen as an ejection.
 *
 * <p>Two ways in: {@link #request} runs a whole request as nginx does (select, attempt, free, try the next
 * server while {@code proxy_next_upstream} says so) and gives the client's status; {@link #record} takes one
 * attempt whose server was chosen elsewhere (a trace) as the first try of a request, so a listed 5xx counts
 * when the upstream has more than one try. Driven from one thread with non-decreasing time; nothing is
 * allocated per request.
 */
public final class NginxDetector extends EjectingDetector {
    /** The client's status when no server may be selected: nginx's "no live upstreams". */
    public static final int NO_LIVE_UPSTREAMS = 502;

    /** Where a request's attempts get their outcomes. */
    @FunctionalInterface
    public interface Attempts {
        /** The outcome of attempt {@code attempt} (0 first) of the request, sent to {@code endpoint}. */
        int outcome(int endpoint, int attempt);

        /**
         * How long attempt {@code attempt} took, asked after its outcome: it is freed that long after its
         * selection, and the next attempt is selected then. The lab's own attempts take no time (the default).
         */
        default long durationNanos(int attempt) {
            return 0;
        }
    }

    private final NginxUpstreamConfig config;
    private final int worker;
    private final RoundRobinPeers peers;
    private final NextUpstream nextUpstream;
    private final NginxListener listener;
    private final EndpointEjections ejections;
    private final boolean[] tried;
    private final long[] returnAtNanos;
    private final int initialTries;
    private long nextReturnNanos = NEVER;
    private int lastAttempts;
    private long ejectionsTotal;
    private long noLiveUpstreams;

    public NginxDetector(NginxUpstreamConfig config, int worker, NginxListener listener) {
        this.config = config;
        this.worker = worker;
        this.peers = new RoundRobinPeers(config.servers());
        this.nextUpstream = config.nextUpstream();
        this.listener = listener;
        this.ejections = new EndpointEjections(config.hosts());
        this.tried = new boolean[peers.size()];
        this.returnAtNanos = new long[peers.size()];
        this.initialTries = nextUpstream.initialTries(peers.serversUp());
    }

    public NginxUpstreamConfig config() {
        return config;
    }

    public int worker() {
        return worker;
    }

    /** The peers' state, for inspection. */
    public RoundRobinPeers peers() {
        return peers;
    }

    /**
     * Runs one request at {@code nowNanos} as nginx does and returns the status the client gets: returns due
     * first; then, while a server may be selected and {@code proxy_next_upstream} lets it go on, select one
     * (smooth weighted round robin over those not tried and not skipped), take its outcome from
     * {@code attempts}, free it as failed or not. A try with no primary server to select goes to the
     * {@code backup} servers, and the request's later tries stay there; no server to select in either gives
     * {@link #NO_LIVE_UPSTREAMS}.
     */
    public int request(long nowNanos, Attempts attempts) {
        if (nowNanos >= nextReturnNanos) {
            runDue(nowNanos);
        }
        Arrays.fill(tried, false);
        int tries = initialTries;
        long t = nowNanos;
        boolean inBackup = false;
        for (int a = 0; ; a++) {
            int peer = -1;
            if (tries > 0) {
                long second = RoundRobinPeers.seconds(t);
                peer = peers.get(second, tried, inBackup);
                if (peer < 0 && !inBackup && peers.hasBackup()) {
                    // ngx_http_upstream_get_round_robin_peer, "failed:": on to the backup set for good
                    inBackup = true;
                    peer = peers.get(second, tried, true);
                }
            }
            if (peer < 0) {
                lastAttempts = a;
                noLiveUpstreams++;
                return NO_LIVE_UPSTREAMS;
            }
            int outcome = attempts.outcome(peer, a);
            boolean retry = nextUpstream.retries(outcome, tries);
            t += attempts.durationNanos(a);
            if (t >= nextReturnNanos) {
                runDue(t);
            }
            free(peer, nextUpstream.peerState(outcome, tries) == PeerState.FAILED, t, RoundRobinPeers.seconds(t));
            tries--;
            if (!retry) {
                lastAttempts = a + 1;
                return NextUpstream.clientStatus(outcome);
            }
        }
    }

    /** Attempts made by the last {@link #request}. */
    public int lastAttempts() {
        return lastAttempts;
    }

    /**
     * One attempt to {@code endpoint}, chosen elsewhere, as the first try of a request: its selection (which may
     * move {@code checked}) and its freeing, failed or not by {@code proxy_next_upstream}.
     */
    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        attempt(endpoint, outcome, initialTries, nowNanos);
    }

    /**
     * One attempt to {@code endpoint}, chosen elsewhere, with {@code triesLeft} tries left before it (a replayed
     * request's later attempts); returns whether nginx would try another server after it.
     */
    public boolean attempt(int endpoint, int outcome, int triesLeft, long nowNanos) {
        if (nowNanos >= nextReturnNanos) {
            runDue(nowNanos);
        }
        long now = RoundRobinPeers.seconds(nowNanos);
        peers.selected(endpoint, now);
        free(endpoint, nextUpstream.peerState(outcome, triesLeft) == PeerState.FAILED, nowNanos, now);
        return nextUpstream.retries(outcome, triesLeft);
    }

    /**
     * The tries a request starts with: servers not down, primary and backup ({@code ngx_http_upstream_tries}),
     * capped by {@code proxy_next_upstream_tries}.
     */
    public int initialTries() {
        return initialTries;
    }

    private void free(int peer, boolean failed, long nowNanos, long now) {
        boolean wasOver = failed && peers.maxFails(peer) != 0 && peers.fails(peer) >= peers.maxFails(peer);
        if (!peers.free(peer, failed, now)) {
            return;
        }
        long returnAt = Durations.saturatingMultiply(peers.selectableFromSeconds(peer), Durations.SECOND);
        returnAtNanos[peer] = returnAt;
        nextReturnNanos = Math.min(nextReturnNanos, returnAt);
        if (ejections.isEjected(peer)) {
            return; // a failure while out (an attempt sent before the ejection): nginx logs it again, out longer
        }
        ejections.eject(peer, nowNanos);
        ejectionsTotal++;
        NginxEvent.Reason reason = wasOver ? NginxEvent.Reason.PROBE_FAILED : NginxEvent.Reason.MAX_FAILS;
        listener.onEvent(new NginxEvent(
                nowNanos,
                worker,
                peer,
                peers.name(peer),
                NginxEvent.Action.EJECT,
                reason,
                peers.fails(peer),
                peers.maxFails(peer),
                returnAt));
        ejections.tellEjected(peer, nowNanos);
    }

    @Override
    public long nextDueNanos() {
        return nextReturnNanos;
    }

    /** Returns every peer whose {@code fail_timeout} has lapsed by {@code nowNanos}, in upstream order. */
    @Override
    public void runDue(long nowNanos) {
        if (nowNanos < nextReturnNanos) {
            return;
        }
        long next = NEVER;
        for (int i = 0, n = peers.size(); i < n; i++) {
            if (!ejections.isEjected(i)) {
                continue;
            }
            if (returnAtNanos[i] <= nowNanos) {
                ejections.returnToRotation(i);
                listener.onEvent(new NginxEvent(
                        nowNanos,
                        worker,
                        i,
                        peers.name(i),
                        NginxEvent.Action.UNEJECT,
                        NginxEvent.Reason.FAIL_TIMEOUT,
                        peers.fails(i),
                        peers.maxFails(i),
                        returnAtNanos[i]));
                ejections.tellReturned(i, nowNanos);
            } else {
                next = Math.min(next, returnAtNanos[i]);
            }
        }
        nextReturnNanos = next;
    }

    @Override
    protected EndpointEjections ejections() {
        return ejections;
    }

    @Override
    public int endpointCount() {
        return peers.size();
    }

    public String endpointName(int endpoint) {
        return peers.name(endpoint);
    }

    /** Ejections so far (each failure that took a peer out). */
    public long ejectionsTotal() {
        return ejectionsTotal;
    }

    /** Requests answered 502 because no server could be selected. */
    public long noLiveUpstreams() {
        return noLiveUpstreams;
    }
}
