package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Decides, request by request, whether a host fails (docs/model.md). Each (fault, host) pair keeps the count
 * {@code k} of requests the host received while that fault was active and its {@link FailureSequence}; the
 * first active fault in the scenario's list that covers the host decides, and every active fault covering it
 * counts the request (and, for the random and burst patterns, takes its draw).
 *
 * <p>The fault windows cut time into segments in which the same faults are active. The injector keeps the
 * segment of the last time asked about and, per host, the list of its faults active in it (rebuilt the first
 * time the host is asked about in a new segment), so a request costs the faults active at the host, never
 * the faults of the whole scenario: thousands of faults that are never active cost nothing per request.
 * Times may come in any order; in time order each segment is found once.
 */
public final class FaultInjector {
    /** No fault applies. */
    public static final int PASS = -1;

    private final FaultSpec[] faults;
    /** For each host, the indexes of the faults that cover it, in list order. */
    private final int[][] faultsOfHost;
    /** counters[host][j]: requests host received while faultsOfHost[host][j] was active. */
    private final long[][] counters;
    /** Every time at which a fault starts or ends, sorted, without repeats. */
    private final long[] changes;
    /** The current segment, [segmentStart, segmentEnd), and a number that changes with it. */
    private long segmentStart = Long.MAX_VALUE;

    private long segmentEnd = Long.MIN_VALUE;
    private long segment;
    private boolean anyActiveInSegment;
    /** activeOfHost[host][0..activeCount[host]): the j (into faultsOfHost[host]) active in segmentOfHost[host]. */
    private final int[][] activeOfHost;

    private final int[] activeCount;
    private final long[] segmentOfHost;
    /** sequences[host][j]: which of those requests fail, by faultsOfHost[host][j]'s pattern. */
    private final FailureSequence[][] sequences;

    /** Faults with the even pattern only (no draws; the seed is not needed). */
    public FaultInjector(List<FaultSpec> faults, Map<String, Integer> hostIndex) {
        this(faults, hostIndex, 0);
    }

    /**
     * @param seed the scenario's seed, from which the random and burst patterns derive a stream per fault and
     *             host ({@link FailureSequence#streamSeed})
     */
    public FaultInjector(List<FaultSpec> faults, Map<String, Integer> hostIndex, long seed) {
        this(faults, hostIndex, seed, null);
    }

    /**
     * @param memo where the random pattern's failures are looked up, found once for many runs of the same scenario
     *             ({@link FailureMemo}; the same failures), or null to draw them in every run
     */
    public FaultInjector(List<FaultSpec> faults, Map<String, Integer> hostIndex, long seed, FailureMemo memo) {
        this.faults = faults.toArray(new FaultSpec[0]);
        int hosts = hostIndex.size();
        String[] names = new String[hosts];
        hostIndex.forEach((name, index) -> names[index] = name);
        List<List<Integer>> byHost = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            byHost.add(new ArrayList<>());
        }
        for (int f = 0; f < this.faults.length; f++) {
            for (String name : this.faults[f].hosts()) {
                List<Integer> list = byHost.get(hostIndex.get(name));
                if (!list.contains(f)) {
                    list.add(f);
                }
            }
        }
        faultsOfHost = new int[hosts][];
        counters = new long[hosts][];
        activeOfHost = new int[hosts][];
        activeCount = new int[hosts];
        segmentOfHost = new long[hosts];
        sequences = new FailureSequence[hosts][];
        for (int h = 0; h < hosts; h++) {
            faultsOfHost[h] = byHost.get(h).stream().mapToInt(Integer::intValue).toArray();
            counters[h] = new long[faultsOfHost[h].length];
            activeOfHost[h] = new int[faultsOfHost[h].length];
            segmentOfHost[h] = -1;
            sequences[h] = new FailureSequence[faultsOfHost[h].length];
            for (int j = 0; j < faultsOfHost[h].length; j++) {
                int f = faultsOfHost[h][j];
                sequences[h][j] = FailureSequence.of(this.faults[f], f, names[h], seed, memo);
            }
        }
        changes = Stream.of(this.faults)
                .flatMapToLong(f -> LongStream.of(f.startNanos(), f.endNanos()))
                .sorted()
                .distinct()
                .toArray();
    }

    /** Moves to the segment holding {@code nanos}, unless it is the current one. */
    private void locate(long nanos) {
        if (nanos < segmentStart || nanos >= segmentEnd) {
            relocate(nanos);
        }
    }

    private void relocate(long nanos) {
        int after = Arrays.binarySearch(changes, nanos);
        int index = after >= 0 ? after + 1 : -after - 1; // changes[index - 1] <= nanos < changes[index]
        segmentStart = index == 0 ? Long.MIN_VALUE : changes[index - 1];
        segmentEnd = index == changes.length ? Long.MAX_VALUE : changes[index];
        segment++;
        anyActiveInSegment = false;
        for (FaultSpec f : faults) {
            if (f.activeAt(nanos)) {
                anyActiveInSegment = true;
                break;
            }
        }
    }

    /** The host's active faults (indexes j into faultsOfHost[host]) in the current segment. */
    private int[] active(int host, long nanos) {
        if (segmentOfHost[host] != segment) {
            findActive(host, nanos);
        }
        return activeOfHost[host];
    }

    private void findActive(int host, long nanos) {
        int[] mine = faultsOfHost[host];
        int n = 0;
        for (int j = 0; j < mine.length; j++) {
            if (faults[mine[j]].activeAt(nanos)) {
                activeOfHost[host][n++] = j;
            }
        }
        activeCount[host] = n;
        segmentOfHost[host] = segment;
    }

    /**
     * Counts a request to {@code host} at {@code nanos} and returns the index of the fault that fails it, or
     * {@link #PASS}. The common cases (the same segment as the last request, no fault active at the host) take
     * a few comparisons; the rest is in separate methods so that this one stays small enough to be inlined.
     */
    public int onRequest(int host, long nanos) {
        locate(nanos);
        return onRequestInSegment(host, nanos);
    }

    /**
     * Moves to the time {@code nanos} and says whether any fault window is active then; a caller that sends
     * several attempts at that time then asks {@link #onRequestInSegment} for each, without finding the
     * segment again.
     */
    public boolean moveTo(long nanos) {
        locate(nanos);
        return anyActiveInSegment;
    }

    /**
     * {@link #onRequest} for a request at {@code nanos}, the time of the last {@link #moveTo} or
     * {@link #onRequest}: the segment is not looked for again.
     */
    public int onRequestInSegment(int host, long nanos) {
        if (segmentOfHost[host] != segment) {
            findActive(host, nanos);
        }
        return activeCount[host] == 0 ? PASS : countActive(host);
    }

    /** Counts the request in each fault active at the host; the first of them decides. */
    private int countActive(int host) {
        int[] mine = faultsOfHost[host];
        int[] active = activeOfHost[host];
        int decided = PASS;
        for (int a = 0; a < activeCount[host]; a++) {
            int j = active[a];
            long k = counters[host][j]++;
            boolean fails = sequences[host][j].fails(k);
            if (a == 0 && fails) {
                decided = mine[j];
            }
        }
        return decided;
    }

    /**
     * Whether every fault active at {@code host} in the current segment is {@link FailureSequence#indexed}: then its
     * requests can be counted in bulk ({@link #skip}) and its next failure looked up ({@link #passesAhead}).
     */
    public boolean indexedAt(int host, long nanos) {
        int[] active = active(host, nanos);
        for (int a = 0; a < activeCount[host]; a++) {
            if (!sequences[host][active[a]].indexed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Counts {@code n} requests to {@code host} in the current segment that the caller knows pass
     * ({@link #passesAhead}): the same state as {@code n} calls of {@link #onRequestInSegment} that each returned
     * {@link #PASS}. Only for a host whose active faults are all {@link #indexedAt indexed}.
     */
    public void skip(int host, long n) {
        int[] active = activeOfHost[host];
        for (int a = 0; a < activeCount[host]; a++) {
            counters[host][active[a]] += n;
        }
    }

    /**
     * How many of the next requests to {@code host} in the current segment pass before one fails, at most
     * {@code most} (when none of those fails). The first active fault decides, as in {@link #onRequestInSegment};
     * nothing is counted. Only for a host whose active faults are all {@link #indexedAt indexed}.
     */
    public long passesAhead(int host, long most) {
        if (activeCount[host] == 0) {
            return most;
        }
        int j = activeOfHost[host][0];
        long k = counters[host][j];
        return sequences[host][j].nextFailure(k, k + most) - k;
    }

    /**
     * Scans {@code host}'s next {@code most} requests in the current segment for the deciding fault's failures, handing
     * each to {@code scan} in order ({@link FailureScan}, started at the host's next request): returns the offset of the
     * failure it stopped at (0: the next request), or {@code most}. Nothing is counted. Only for a host with an active
     * fault, all of them {@link #indexedAt indexed}.
     */
    public long scanFailures(int host, long most, FailureScan scan) {
        int j = activeOfHost[host][0];
        long k = counters[host][j];
        scan.start(k);
        return sequences[host][j].scanFailures(k, k + most, scan) - k;
    }

    /** The fault that decides {@code host}'s requests in the current segment: the first active one covering it. */
    public int decidingFault(int host) {
        return faultsOfHost[host][activeOfHost[host][0]];
    }

    /**
     * The first time after {@code nanos} at which a fault starts or ends ({@link Long#MAX_VALUE} when none does):
     * until then the same faults are active, at the same hosts.
     */
    public long segmentEndNanos(long nanos) {
        locate(nanos);
        return segmentEnd;
    }

    /**
     * Whether a fault covering {@code host} is active at {@code nanos}: only then does a request to the host count
     * toward a fault (and take a draw); any other request passes without touching the injector's state.
     */
    public boolean hasActiveFault(int host, long nanos) {
        locate(nanos);
        active(host, nanos);
        return activeCount[host] > 0;
    }

    /** Whether any fault window is active at {@code nanos} ("during fault" in the summary). */
    public boolean anyActive(long nanos) {
        locate(nanos);
        return anyActiveInSegment;
    }

    /**
     * How the host fails an active health check at {@code nanos}: the kind of the first active fault covering it
     * that fails health checks, or null when its probes pass.
     */
    public HealthCheckFailure healthCheckFailure(int host, long nanos) {
        locate(nanos);
        int[] active = active(host, nanos);
        for (int a = 0; a < activeCount[host]; a++) {
            FaultSpec f = faults[faultsOfHost[host][active[a]]];
            if (f.failsHealthCheck()) {
                return f.healthCheckFailure();
            }
        }
        return null;
    }

    public FaultSpec fault(int index) {
        return faults[index];
    }
}
