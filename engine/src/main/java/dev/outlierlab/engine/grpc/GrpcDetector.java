package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.EjectingDetector;
import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.EndpointSlots;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.CapRule;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EjectionTime;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
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
 * one thread; allocates nothing per call.
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
    private long[] activeSuccess;
    private long[] activeFailure;
    private long[] inactiveSuccess;
    private long[] inactiveFailure;
    private long[] multiplier;
    private long[] numEjections;
    private int[] candidates;
    private double[] rates;
    private long nextSweepNanos;
    /** grpc-go's {@code numEndpointsEjected}: raised at every ejection, a second one of the same endpoint included. */
    private long goEjectedCounter;

    private long detectedSr;
    private long enforcedSr;
    private long detectedFp;
    private long enforcedFp;
    private long overflow;
    private long unenforced;
    private long returns;
    private long sweeps;
    private final SweepReport report = new SweepReport();

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
        activeSuccess = new long[n];
        activeFailure = new long[n];
        inactiveSuccess = new long[n];
        inactiveFailure = new long[n];
        multiplier = new long[n];
        numEjections = new long[n];
        candidates = new int[n];
        rates = new double[n];
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
        if (outcome >= 200 && outcome <= 299) {
            activeSuccess[endpoint]++;
        } else {
            activeFailure[endpoint]++;
        }
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
        int n = ejections.size();
        for (int i = 0; i < n; i++) {
            inactiveSuccess[i] = activeSuccess[i];
            inactiveFailure[i] = activeFailure[i];
            activeSuccess[i] = 0;
            activeFailure[i] = 0;
        }
        report.reset();
        if (config.successRate() != null) {
            successRate(t, config.successRate());
        }
        if (config.failurePercentage() != null) {
            failurePercentage(t, config.failurePercentage());
        }
        if (listener.wantsIntervals()) {
            listener.onInterval(report.evaluation(t, ejections, inactiveSuccess, inactiveFailure));
        }
        for (int i = 0; i < n; i++) {
            if (!ejections.isEjected(i)) {
                multiplier[i] = multiplier[i] == 0 ? 0 : multiplier[i] - 1;
            } else if (t > ejections.ejectedAtNanos(i) + config.ejectionNanos(multiplier[i])) {
                uneject(i, t);
            }
        }
    }

    /** The endpoints with at least {@code volume} calls in the judged interval (C-core: and at least one). */
    private int withVolume(long volume) {
        int count = 0;
        for (int i = 0, n = ejections.size(); i < n; i++) {
            long v = inactiveSuccess[i] + inactiveFailure[i];
            if (v >= volume && (impl != GrpcImplementation.CORE || v > 0)) {
                candidates[count++] = i;
            }
        }
        return count;
    }

    private void successRate(long t, SuccessRateEjection sr) {
        int count = withVolume(sr.requestVolume());
        if (count == 0 || count < sr.minimumHosts()) {
            return;
        }
        double scale = impl == GrpcImplementation.CORE ? 100.0 : 1.0;
        double sum = 0;
        for (int k = 0; k < count; k++) {
            int i = candidates[k];
            double rate = impl == GrpcImplementation.CORE
                    ? inactiveSuccess[i] * 100.0 / (inactiveSuccess[i] + inactiveFailure[i])
                    : (double) inactiveSuccess[i] / (double) (inactiveSuccess[i] + inactiveFailure[i]);
            rates[k] = rate;
            sum += rate;
        }
        double mean = sum / count;
        double squares = 0;
        for (int k = 0; k < count; k++) {
            double d = rates[k] - mean;
            squares += d * d;
        }
        double stdev = Math.sqrt(squares / count);
        // grpc-java divides the factor in float (stdevFactor / 1000f); grpc-go and C-core in double.
        double factor =
                impl == GrpcImplementation.JAVA ? (double) (sr.stdevFactor() / 1000f) : sr.stdevFactor() / 1000.0;
        double required = mean - stdev * factor;
        report.successRate(mean * 100 / scale, stdev * 100 / scale, required * 100 / scale);
        for (int k = 0; k < count; k++) {
            if (rates[k] < required) {
                int i = candidates[k];
                long volume = inactiveSuccess[i] + inactiveFailure[i];
                DetectionEvidence evidence = new SuccessRateEvidence(
                        rates[k] * 100 / scale,
                        volume,
                        mean * 100 / scale,
                        stdev * 100 / scale,
                        sr.stdevFactor(),
                        required * 100 / scale,
                        count);
                detectedSr++;
                offer(i, t, EjectionType.SUCCESS_RATE, evidence, sr.enforcementPercentage());
            }
        }
    }

    private void failurePercentage(long t, FailurePercentageEjection fp) {
        int count = withVolume(fp.requestVolume());
        if (count == 0 || count < fp.minimumHosts()) {
            return;
        }
        report.failurePercentageRan();
        for (int k = 0; k < count; k++) {
            int i = candidates[k];
            if (impl == GrpcImplementation.CORE && ejections.isEjected(i)) {
                continue; // C-core: "make sure success rate algorithm didn't already eject this backend"
            }
            long volume = inactiveSuccess[i] + inactiveFailure[i];
            double percent = FailurePercentages.failurePercent(impl, inactiveSuccess[i], inactiveFailure[i]);
            boolean outlier =
                    FailurePercentages.failureOutlier(impl, inactiveFailure[i], volume, percent, fp.threshold());
            if (outlier) {
                detectedFp++;
                offer(
                        i,
                        t,
                        EjectionType.FAILURE_PERCENTAGE,
                        new FailurePercentageEvidence(percent, volume, fp.threshold(), count),
                        fp.enforcementPercentage());
            }
        }
    }

    /** The cap and the enforcement draw, in the implementation's order, then the ejection. */
    private void offer(int endpoint, long t, EjectionType type, DetectionEvidence evidence, int enforcing) {
        int hosts = ejections.size();
        int ejectedCount = ejections.ejectedCount();
        int max = config.maxEjectionPercent();
        double percent;
        boolean allowed;
        long key = -1;
        boolean enforced;
        if (impl == GrpcImplementation.CORE) {
            // absl::Uniform(bit_gen, 1, 100) is drawn before the cap is tested: 1 to 99, so a percentage of 1 never
            // ejects
            if (enforcing > 1 && enforcing < 100) {
                key = 1 + random.nextModulo(99);
            }
            enforced = enforcing >= 100 || (key >= 0 && key < enforcing);
            percent = 100.0 * ejectedCount / hosts;
            allowed = ejectedCount == 0 || percent < max;
        } else {
            long counted = impl == GrpcImplementation.GO ? goEjectedCounter : ejectedCount;
            percent = ((double) counted / (double) hosts) * 100;
            allowed = !(percent >= max);
            if (allowed && enforcing > 0 && enforcing < 100) {
                key = random.nextModulo(100);
            }
            enforced = enforcing >= 100 || (key >= 0 && key < enforcing);
        }
        CapCheck cap = new CapCheck(
                ejectedCount, hosts, percent, max, impl == GrpcImplementation.CORE, allowed, CapRule.ACTIVE_BELOW_MAX);
        Enforcement enforcement = new Enforcement(enforcing, key, enforced);
        boolean already = ejections.isEjected(endpoint);
        if (!allowed) {
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
        if (!enforced) {
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
        activeSuccess = Arrays.copyOf(activeSuccess, n + 1);
        activeFailure = Arrays.copyOf(activeFailure, n + 1);
        inactiveSuccess = Arrays.copyOf(inactiveSuccess, n + 1);
        inactiveFailure = Arrays.copyOf(inactiveFailure, n + 1);
        multiplier = Arrays.copyOf(multiplier, n + 1);
        numEjections = Arrays.copyOf(numEjections, n + 1);
        candidates = new int[n + 1];
        rates = new double[n + 1];
        return n;
    }

    /**
     * Removes the endpoint at {@code endpoint} (those after it move down by one), as grpc-java drops the tracker of
     * an address that left ({@code keySet().retainAll}): an ejected one leaves without a return. grpc-go's count of
     * ejected endpoints is not lowered (its {@code UpdateClientConnState} only deletes the entry).
     */
    public void removeEndpoint(int endpoint) {
        ejections.remove(endpoint);
        activeSuccess = EndpointSlots.without(activeSuccess, endpoint);
        activeFailure = EndpointSlots.without(activeFailure, endpoint);
        inactiveSuccess = EndpointSlots.without(inactiveSuccess, endpoint);
        inactiveFailure = EndpointSlots.without(inactiveFailure, endpoint);
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
                detectedSr,
                enforcedSr,
                detectedFp,
                enforcedFp,
                overflow,
                unenforced,
                returns,
                sweeps,
                ejections.ejectedCount());
    }
}
