package dev.outlierlab.engine.gateway;

import dev.outlierlab.engine.EjectingDetector;
import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.EndpointSlots;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.stage.StageMode;
import java.util.Arrays;
import java.util.List;

/**
 * A "weakest link remover" for one gateway process (docs/gateway.md): each
 * endpoint keeps a rolling window of buckets and a consecutive-failure count; each recorded outcome is
 * judged at once, for the endpoint that reported it: the hard trip first, then the success rate against
 * the scored peers. An ejection lasts exactly {@code ejection_time}; the endpoint returns at the first look
 * (an outcome or {@link #runDue}) at or after that time, with an empty window and a count of 0. In shadow
 * mode the same machine runs and its ejections are reported as {@code would_eject}. Allocates nothing per
 * outcome (events are made only for decisions). Not thread-safe: one thread per process.
 */
public final class GatewayDetector extends EjectingDetector {
    private final GatewayConfig config;
    private final int process;
    private final GatewayListener listener;
    /** Names, ejections (since when, how many), the version and the ejection listeners. */
    private final EndpointEjections ejections;
    // Replaced only by addEndpoint and removeEndpoint (membership changes), never on the attempt path.
    private EndpointWindow[] windows;
    private long[] consecutive;
    private long[] returnAtNanos;
    private double[] peerRates;
    private final GatewayAction ejectAction;
    private final long bucketNanos;
    private final int minRequests;
    private final int trip;
    private final boolean leaveOneOut;
    private final int minimumPeers;
    private final double stdevFactor;
    private final double minStdevPercent;
    /**
     * Before this time every window not ejected has been advanced into the current bucket, so advancing it
     * again would change nothing: the judgement's pass over the peers' windows runs once per bucket.
     */
    private long windowsCurrentUntilNanos = Long.MIN_VALUE;

    private long nextReturnNanos = NEVER;
    private long belowMinStdev;
    /** The optional cap (not in seed 004): 100 lets every endpoint be ejected, as the spec does. */
    private int maxEjectionPercent = 100;

    private long capRefusals;

    public GatewayDetector(GatewayConfig config, List<String> endpoints, int process, GatewayListener listener) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("a gateway detector needs at least one endpoint");
        }
        this.config = config;
        this.process = process;
        this.ejections = new EndpointEjections(endpoints);
        this.listener = listener;
        int n = endpoints.size();
        this.windows = new EndpointWindow[n];
        for (int i = 0; i < n; i++) {
            windows[i] = new EndpointWindow(config.bucketNanos(), config.buckets());
        }
        this.consecutive = new long[n];
        this.returnAtNanos = new long[n];
        this.peerRates = new double[n];
        this.ejectAction = config.mode() == StageMode.SHADOW ? GatewayAction.WOULD_EJECT : GatewayAction.EJECT;
        this.bucketNanos = config.bucketNanos();
        this.minRequests = config.minRequests();
        this.trip = config.consecutiveFailures();
        this.leaveOneOut = config.peerSet() == PeerSet.OTHERS;
        this.minimumPeers = config.peerSet().minimumPeers();
        this.stdevFactor = config.stdevFactor();
        this.minStdevPercent = config.minStdevPercent();
    }

    public GatewayConfig config() {
        return config;
    }

    public int process() {
        return process;
    }

    public String endpointName(int endpoint) {
        return ejections.name(endpoint);
    }

    @Override
    protected EndpointEjections ejections() {
        return ejections;
    }

    /**
     * Records one attempt's outcome and judges the endpoint (section 3). Returns due at {@code nowNanos} are
     * applied first. Connect-success signals are not attempts and are ignored. A success with no return due
     * (nearly every attempt) takes a path small enough to be compiled into the caller's loop; everything else
     * is {@link #recordOutcome}, with the same result.
     */
    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        if (nowNanos >= nextReturnNanos || !Outcome.isSuccess(outcome)) {
            recordOutcome(endpoint, outcome, nowNanos);
            return;
        }
        EndpointWindow own = windows[endpoint];
        own.record(nowNanos, false);
        consecutive[endpoint] = 0;
        if (ejections.isEjected(endpoint) || own.failures() == 0 || own.attempts() < minRequests) {
            return; // see judgeSuccessRate: none of these is judged
        }
        judgeSuccessRate(endpoint, nowNanos);
    }

    private void recordOutcome(int endpoint, int outcome, long nowNanos) {
        if (Outcome.isConnectSignal(outcome)) {
            return;
        }
        if (nowNanos >= nextReturnNanos) {
            runDue(nowNanos);
        }
        boolean failed = Outcome.isFailure(outcome);
        windows[endpoint].record(nowNanos, failed);
        consecutive[endpoint] = failed ? consecutive[endpoint] + 1 : 0;
        if (ejections.isEjected(endpoint)) {
            return;
        }
        if (trip > 0 && consecutive[endpoint] >= trip) {
            hardTrip(endpoint, nowNanos);
            return;
        }
        judgeSuccessRate(endpoint, nowNanos);
    }

    private void hardTrip(int endpoint, long nowNanos) {
        long count = consecutive[endpoint];
        consecutive[endpoint] = 0;
        eject(endpoint, nowNanos, EjectionReason.CONSECUTIVE, new ConsecutiveTrip(count, trip));
    }

    /**
     * Section 3's statistical rule for an endpoint that was not ejected or tripped. The cheap exits come first
     * and stay small enough to be inlined into {@link #record}; the comparison with the peers is
     * {@link #judgeAgainstPeers}.
     */
    private void judgeSuccessRate(int endpoint, long nowNanos) {
        EndpointWindow own = windows[endpoint];
        if (own.attempts() < minRequests) {
            return;
        }
        if (nowNanos >= windowsCurrentUntilNanos) {
            advanceWindows(nowNanos);
        }
        if (own.failures() == 0) {
            // A rate of exactly 100 is never below the peers' mean: every scored rate is at most 100 (s * 100.0 / a
            // with s <= a rounds to at most 100), so each partial sum of k of them rounds to at most 100 * k (a
            // representable bound), and the mean to at most 100; the threshold is at most the mean.
            return;
        }
        judgeAgainstPeers(endpoint, own, nowNanos);
    }

    private void judgeAgainstPeers(int endpoint, EndpointWindow own, long nowNanos) {
        int peers = 0;
        int scored = 0;
        double sum = 0;
        for (int i = 0, n = ejections.size(); i < n; i++) {
            if (ejections.isEjected(i)) {
                continue;
            }
            EndpointWindow w = windows[i];
            if (w.attempts() < minRequests) {
                continue;
            }
            scored++;
            if (leaveOneOut && i == endpoint) {
                continue;
            }
            double rate = w.successRatePercent();
            peerRates[peers++] = rate;
            sum += rate;
        }
        if (peers < minimumPeers) {
            return;
        }
        double mean = sum / peers;
        double rate = own.successRatePercent();
        if (rate >= mean) {
            // mean - factor * stdev is at most the mean: nothing at or above it can be below the threshold
            return;
        }
        double variance = 0;
        for (int k = 0; k < peers; k++) {
            double d = peerRates[k] - mean;
            variance += d * d;
        }
        double stdev = Math.sqrt(variance / peers);
        double threshold = mean - stdevFactor * stdev;
        if (stdev < minStdevPercent) {
            if (rate < threshold) {
                belowMinStdev++;
            }
            return;
        }
        if (rate < threshold) {
            eject(
                    endpoint,
                    nowNanos,
                    EjectionReason.SUCCESS_RATE,
                    new SuccessRateJudgement(
                            rate, own.attempts(), own.failures(), mean, stdev, threshold, scored, peers));
        }
    }

    /**
     * Brings every window not ejected to {@code nowNanos}, as the judgement needs its peers' windows: at most
     * once per bucket, since within a bucket advancing a window a second time does nothing.
     */
    private void advanceWindows(long nowNanos) {
        for (int i = 0, n = ejections.size(); i < n; i++) {
            if (!ejections.isEjected(i)) {
                windows[i].advance(nowNanos);
            }
        }
        windowsCurrentUntilNanos = nowNanos >= 0 ? (nowNanos / bucketNanos + 1) * bucketNanos : Long.MIN_VALUE;
    }

    private void eject(int endpoint, long nowNanos, EjectionReason reason, GatewayEvidence evidence) {
        if (maxEjectionPercent < 100
                && (long) (ejections.ejectedCount() + 1) * 100 > (long) maxEjectionPercent * ejections.size()) {
            capRefusals++;
            return;
        }
        ejections.eject(endpoint, nowNanos);
        long returnAt = nowNanos + config.ejectionTimeNanos();
        returnAtNanos[endpoint] = returnAt;
        nextReturnNanos = Math.min(nextReturnNanos, returnAt);
        listener.onEvent(new GatewayEvent(
                nowNanos, process, endpoint, ejections.name(endpoint), ejectAction, reason, evidence, returnAt, 0));
        ejections.tellEjected(endpoint, nowNanos);
    }

    /** The earliest time an ejected endpoint may return, or {@link #NEVER}. */
    @Override
    public long nextDueNanos() {
        return nextReturnNanos;
    }

    /** A look at every endpoint: each ejection whose time is up ends now, in routing order (section 4). */
    @Override
    public void runDue(long nowNanos) {
        if (nowNanos < nextReturnNanos) {
            return;
        }
        long next = NEVER;
        for (int i = 0, n = ejections.size(); i < n; i++) {
            if (!ejections.isEjected(i)) {
                continue;
            }
            if (returnAtNanos[i] <= nowNanos) {
                returnToRotation(i, nowNanos);
            } else {
                next = Math.min(next, returnAtNanos[i]);
            }
        }
        nextReturnNanos = next;
    }

    private void returnToRotation(int endpoint, long nowNanos) {
        ejections.returnToRotation(endpoint);
        windows[endpoint].clear();
        windowsCurrentUntilNanos = Long.MIN_VALUE; // a returning window was not advanced while it was out
        consecutive[endpoint] = 0;
        listener.onEvent(new GatewayEvent(
                nowNanos,
                process,
                endpoint,
                ejections.name(endpoint),
                GatewayAction.RETURN,
                null,
                null,
                returnAtNanos[endpoint],
                nowNanos - ejections.ejectedAtNanos(endpoint)));
        ejections.tellReturned(endpoint, nowNanos);
    }

    /**
     * Adds an endpoint at the end of the routing order, with an empty window, a count of 0 and not ejected;
     * every other endpoint keeps its window, count and ejection. Returns its index. The spec is silent on
     * membership; this is what Envoy's detector does when a host is added (a fresh host monitor).
     */
    public int addEndpoint(String name) {
        int n = ejections.add(name);
        windows = Arrays.copyOf(windows, n + 1);
        windows[n] = new EndpointWindow(config.bucketNanos(), config.buckets());
        consecutive = Arrays.copyOf(consecutive, n + 1);
        returnAtNanos = Arrays.copyOf(returnAtNanos, n + 1);
        peerRates = new double[n + 1];
        windowsCurrentUntilNanos = Long.MIN_VALUE; // the new window has not been advanced with the others
        return n;
    }

    /**
     * Removes the endpoint at {@code endpoint}; those after it move down by one in the routing order and keep
     * their windows, counts and ejections. An ejected endpoint leaves without a return event and stops counting
     * as ejected, as a removed host does in Envoy's detector ({@code ejections_active} goes down, nothing is
     * logged). The last endpoint may be removed too.
     */
    public void removeEndpoint(int endpoint) {
        ejections.remove(endpoint);
        windows = EndpointSlots.without(windows, endpoint, new EndpointWindow[windows.length - 1]);
        consecutive = EndpointSlots.without(consecutive, endpoint);
        returnAtNanos = EndpointSlots.without(returnAtNanos, endpoint);
        peerRates = new double[ejections.size()];
        windowsCurrentUntilNanos = Long.MIN_VALUE;
    }

    @Override
    public int endpointCount() {
        return ejections.size();
    }

    /**
     * An optional cap the modelled gateway does not have: an ejection that would put more than this share of the
     * endpoints out at once is refused (counted in {@link #capRefusals()}), as Envoy's
     * {@code max_ejection_percent} refuses one ({@code DetectorImpl::ejectHost}: ejected after this one over
     * all, at most the percentage). 100, the default, is no cap: the spec's behaviour.
     */
    public void setMaxEjectionPercent(int percent) {
        if (percent < 0 || percent > 100) {
            throw new InvalidConfigException(
                    "gateway.max_ejection_percent",
                    Integer.toString(percent),
                    "a whole percentage from 0 to 100 (100: no cap)");
        }
        this.maxEjectionPercent = percent;
    }

    /** Ejections the cap refused. */
    public long capRefusals() {
        return capRefusals;
    }

    /** Endpoints ejected now. */
    public int ejectedCount() {
        return ejections.ejectedCount();
    }

    /**
     * Judgements whose rate was below {@code mean - stdev_factor * stdev} but whose spread was below
     * {@code min_stdev}: what the floor prevented.
     */
    public long judgementsBelowMinStdev() {
        return belowMinStdev;
    }

    /** The endpoint's window, for inspection (tests, the browser's charts). */
    public EndpointWindow window(int endpoint) {
        return windows[endpoint];
    }

    /** The endpoint's consecutive failures now. */
    public long consecutiveFailures(int endpoint) {
        return consecutive[endpoint];
    }

    /** When the endpoint was last ejected (meaningful while ejected). */
    public long ejectedAtNanos(int endpoint) {
        return ejections.ejectedAtNanos(endpoint);
    }

    /** When the endpoint's current ejection ends (meaningful while ejected). */
    public long returnAtNanos(int endpoint) {
        return returnAtNanos[endpoint];
    }
}
