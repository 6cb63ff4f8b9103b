package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides, request by request, whether a host fails (spec section 5). Each (fault, host) pair keeps the count
 * {@code k} of requests the host received while that fault was active and its {@link FailureSequence}; the
 * first active fault in the scenario's list that covers the host decides, and every active fault covering it
 * counts the request (and, for the random and burst patterns, takes its draw).
 */
public final class FaultInjector {
    /** No fault applies. */
    public static final int PASS = -1;

    private final FaultSpec[] faults;
    /** For each host, the indexes of the faults that cover it, in list order. */
    private final int[][] faultsOfHost;
    /** counters[host][j]: requests host received while faultsOfHost[host][j] was active. */
    private final long[][] counters;
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
        sequences = new FailureSequence[hosts][];
        for (int h = 0; h < hosts; h++) {
            faultsOfHost[h] = byHost.get(h).stream().mapToInt(Integer::intValue).toArray();
            counters[h] = new long[faultsOfHost[h].length];
            sequences[h] = new FailureSequence[faultsOfHost[h].length];
            for (int j = 0; j < faultsOfHost[h].length; j++) {
                int f = faultsOfHost[h][j];
                sequences[h][j] = FailureSequence.of(this.faults[f], f, names[h], seed);
            }
        }
    }

    /**
     * Counts a request to {@code host} at {@code nanos} and returns the index of the fault that fails it, or
     * {@link #PASS}.
     */
    public int onRequest(int host, long nanos) {
        int[] mine = faultsOfHost[host];
        int decided = PASS;
        boolean first = true;
        for (int j = 0; j < mine.length; j++) {
            FaultSpec fault = faults[mine[j]];
            if (!fault.activeAt(nanos)) {
                continue;
            }
            long k = counters[host][j]++;
            boolean fails = sequences[host][j].fails(k);
            if (first) {
                first = false;
                if (fails) {
                    decided = mine[j];
                }
            }
        }
        return decided;
    }

    /** Whether any fault window is active at {@code nanos} ("during fault" in the summary). */
    public boolean anyActive(long nanos) {
        for (FaultSpec f : faults) {
            if (f.activeAt(nanos)) {
                return true;
            }
        }
        return false;
    }

    /**
     * How the host fails an active health check at {@code nanos}: the kind of the first active fault covering it
     * that fails health checks, or null when its probes pass.
     */
    public HealthCheckFailure healthCheckFailure(int host, long nanos) {
        for (int f : faultsOfHost[host]) {
            if (faults[f].failsHealthCheck() && faults[f].activeAt(nanos)) {
                return faults[f].healthCheckFailure();
            }
        }
        return null;
    }

    public FaultSpec fault(int index) {
        return faults[index];
    }
}
