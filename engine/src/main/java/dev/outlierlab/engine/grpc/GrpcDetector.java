package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.EjectingDetector;
import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.EndpointSlots;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import java.util.Arrays;
import java.util.List;

/**
 * gRPC's outlier-detection policy for one channel, after grpc-java's {@code OutlierDetectionLoadBalancer}
 * ({@code DetectionTimer.run}, {@code SuccessRateOutlierEjectionAlgorithm}, {@code
 * FailurePercentageOutlierEjectionAlgorithm}, {@code EndpointTrackerMap.maybeUnejectOutliers}) with the grpc-go and
 * C-core variants of {@link GrpcImplementation}. Each call that ends counts as a success (a 2xx) or a failure (any
 * other outcome: gRPC counts every non-OK status); a sweep at {@code k * interval} swaps the counters, runs success
 * rate then failure percentage over every endpoint with the volume (ejected ones included), then returns each
 * ejected endpoint whose time is strictly past {@code ejected_at + min(base * multiplier, max(base, max))} and
 * lowers the multiplier of each endpoint not ejected. No jitter, no health-check return, no panic. Events use the
 * lab's vocabulary ({@link OutlierEvent}); enforcement draws come from the seeded {@link RandomSource}. Driven from
 * one thread; allocates nothing per call. This class holds the schedule of sweeps, the ejections and multipliers;
 * the calls are counted in {@link CallCounters}, the outliers found by {@link OutlierAlgorithms}, and each admitted
 * or refused by {@link EjectionAdmission}.
 */
public final class GrpcDetector extends EjectingDetector {
    private final GrpcOutlierConfig config;
    private final GrpcImplementation impl;
    private final RandomSource random;
    private final DetectorListener listener;
    /** Names, ejections (since when, how many), the version and the ejection listeners. */
    private final EndpointEjections ejections;

    private final long lastSweepNanos;
    private final boolean counting;
    private final CallCounters calls;
    private long[] multiplier;
    private long[] numEjections;
    private long nextSweepNanos;
    /** grpc-go's {@code numEndpointsEjected}: raised at every ejection, a second one of the same endpoint included. */
    private long goEjectedCounter;

    private long enforcedSr;
    private long enforcedFp;
    private long overflow;
    private long unenforced;
    private long returns;
    private long sweeps;
    private final SweepReport report = new SweepReport();
    private final OutlierAlgorithms algorithms;

    /**
     * @param endpoints      the endpoints in routing and evaluation order (grpc-java walks a hash map; the lab
     *                       fixes this order)
     * @param lastSweepNanos no sweep runs after this time (a simulation's duration; {@link Long#MAX_VALUE} live)
     */
    public GrpcDetector(
            GrpcOutlierConfig config,
            List<String> endpoints,
            RandomSource random,
            DetectorListener listener,
            long lastSweepNanos) {
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("a gRPC detector needs at least one endpoint");
        }
        this.config = config;
        this.impl = config.implementation();
        this.ejections = new EndpointEjections(endpoints);
        this.random = random;
        this.listener = listener;
        this.lastSweepNanos = lastSweepNanos;
        this.counting = config.enabled();
        int n = endpoints.size();
        calls = new CallCounters(n);
        multiplier = new long[n];
        numEjections = new long[n];
        algorithms = new OutlierAlgorithms(impl, calls, ejections, report);
        nextSweepNanos = counting && config.intervalNanos() <= lastSweepNanos ? config.intervalNanos() : NEVER;
    }

    public GrpcOutlierConfig config() {
        return config;
    }

    public String endpointName(int endpoint) {
        return ejections.name(endpoint);
    }

    @Override
    protected EndpointEjections ejections() {
        return ejections;
    }

    /** Counts one finished call; sweeps due at {@code nowNanos} run first. Connect signals are not calls. */
    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        if (nowNanos >= nextSweepNanos) {
            runDue(nowNanos);
        }
        if (!counting || Outcome.isConnectSignal(outcome)) {
            return;
        }
        calls.record(endpoint, outcome >= 200 && outcome <= 299);
    }

    @Override
    public long nextDueNanos() {
        return nextSweepNanos;
    }

    /** Runs every sweep scheduled at or before {@code nowNanos}, each at its own time. */
    @Override
    public void runDue(long nowNanos) {
        while (nextSweepNanos <= nowNanos) {
            long t = nextSweepNanos;
            sweep(t);
            long next = t + config.intervalNanos();
            nextSweepNanos = next <= lastSweepNanos && next > t ? next : NEVER;
        }
    }

    /** One run of grpc-java's {@code DetectionTimer} at {@code t}. */
    private void sweep(long t) {
        sweeps++;
        calls.swap();
        report.reset();
        if (config.successRate() != null) {
            algorithms.successRate(t, config.successRate(), this::offer);
        }
        if (config.failurePercentage() != null) {
            algorithms.failurePercentage(t, config.failurePercentage(), this::offer);
        }
        if (listener.wantsIntervals()) {
            listener.onInterval(report.evaluation(t, ejections, calls.judgedSuccesses(), calls.judgedFailures()));
        }
        for (int i = 0, n = ejections.size(); i < n; i++) {
            if (!ejections.isEjected(i)) {
                multiplier[i] = multiplier[i] == 0 ? 0 : multiplier[i] - 1;
            } else if (t > ejections.ejectedAtNanos(i) + config.ejectionNanos(multiplier[i])) {
                uneject(i, t);
            }
        }
    }

    /** The cap and the enforcement draw, in the implementation's order ({@link EjectionAdmission}), then the ejection. */
    private void offer(int endpoint, long t, EjectionType type, DetectionEvidence evidence, int enforcing) {
        EjectionAdmission admission = EjectionAdmission.of(
                impl,
                ejections.ejectedCount(),
                goEjectedCounter,
                ejections.size(),
                config.maxEjectionPercent(),
                enforcing,
                random);
        CapCheck cap = admission.cap();
        Enforcement enforcement = admission.enforcement();
        boolean already = ejections.isEjected(endpoint);
        if (!admission.allowed()) {
            overflow++;
            emit(new OutlierEvent(
                    t,
                    ejections.name(endpoint),
                    EventAction.OVERFLOW,
                    type,
                    evidence,
                    cap,
                    null,
                    null,
                    null,
                    0,
                    numEjections[endpoint],
                    already,
                    null));
            return;
        }
        if (!admission.enforced()) {
            unenforced++;
            emit(new OutlierEvent(
                    t,
                    ejections.name(endpoint),
                    EventAction.UNENFORCED,
                    type,
                    evidence,
                    cap,
                    enforcement,
                    null,
                    null,
                    0,
                    numEjections[endpoint],
                    already,
                    null));
            return;
        }
        if (type == EjectionType.SUCCESS_RATE) {
            enforcedSr++;
        } else {
            enforcedFp++;
        }
        eject(endpoint, t, type, evidence, cap, enforcement, already);
    }

    private void eject(
            int endpoint,
            long t,
            EjectionType type,
            DetectionEvidence evidence,
            CapCheck cap,
            Enforcement enforcement,
            boolean already) {
        ejections.eject(endpoint, t);
        goEjectedCounter++;
        multiplier[endpoint]++;
        numEjections[endpoint]++;
        EjectionTime time = new EjectionTime(
                multiplier[endpoint],
                config.baseEjectionTimeNanos(),
                config.maxEjectionTimeNanos(),
                0,
                config.ejectionNanos(multiplier[endpoint]));
        emit(new OutlierEvent(
                t,
                ejections.name(endpoint),
                EventAction.EJECT,
                type,
                evidence,
                cap,
                enforcement,
                time,
                null,
                0,
                numEjections[endpoint],
                already,
                null));
        if (!already) {
            ejections.tellEjected(endpoint, t);
        }
    }

    private void uneject(int endpoint, long t) {
        ejections.returnToRotation(endpoint);
        goEjectedCounter--;
        returns++;
        emit(new OutlierEvent(
                t,
                ejections.name(endpoint),
                EventAction.UNEJECT,
                null,
                null,
                null,
                null,
                null,
                UnejectReason.EJECTION_TIME_ELAPSED,
                t - ejections.ejectedAtNanos(endpoint),
                numEjections[endpoint],
                false,
                null));
        ejections.tellReturned(endpoint, t);
    }

    private void emit(OutlierEvent event) {
        listener.onEvent(event);
    }

    @Override
    public int endpointCount() {
        return ejections.size();
    }

    /** The endpoint's ejection multiplier now. */
    public long multiplier(int endpoint) {
        return multiplier[endpoint];
    }

    /**
     * Adds an endpoint at the end of the order with fresh counters, not ejected and a multiplier of 0, as grpc-java
     * puts a new tracker for a new address ({@code EndpointTrackerMap.putNewTrackers}); returns its index.
     */
    public int addEndpoint(String name) {
        int n = ejections.add(name);
        calls.add();
        multiplier = Arrays.copyOf(multiplier, n + 1);
        numEjections = Arrays.copyOf(numEjections, n + 1);
        algorithms.resize(n + 1);
        return n;
    }

    /**
     * Removes the endpoint at {@code endpoint} (those after it move down by one), as grpc-java drops the tracker of
     * an address that left ({@code keySet().retainAll}): an ejected one leaves without a return. grpc-go's count of
     * ejected endpoints is not lowered (its {@code UpdateClientConnState} only deletes the entry).
     */
    public void removeEndpoint(int endpoint) {
        ejections.remove(endpoint);
        calls.remove(endpoint);
        multiplier = EndpointSlots.without(multiplier, endpoint);
        numEjections = EndpointSlots.without(numEjections, endpoint);
    }

    /** The endpoint's ejections so far (a double ejection counts twice). */
    public long numEjections(int endpoint) {
        return numEjections[endpoint];
    }

    /** When the endpoint was last ejected (meaningful while ejected). */
    public long ejectedAtNanos(int endpoint) {
        return ejections.ejectedAtNanos(endpoint);
    }

    /** What was counted so far. */
    public GrpcStats stats() {
        return new GrpcStats(
                algorithms.detectedSuccessRate(),
                enforcedSr,
                algorithms.detectedFailurePercentage(),
                enforcedFp,
                overflow,
                unenforced,
                returns,
                sweeps,
                ejections.ejectedCount());
    }
}
