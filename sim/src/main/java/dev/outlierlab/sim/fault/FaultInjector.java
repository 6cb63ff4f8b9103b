package dev.outlierlab.sim.fault;

import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides, request by request, whether a host fails (spec section 5). Each (fault, host) pair keeps the count
 * {@code k} of requests the host received while that fault was active; the first active fault in the
 * scenario's list that covers the host decides, and every active fault covering it counts the request.
 */
public final class FaultInjector {
    /** No fault applies. */
    public static final int PASS = -1;

    private final FaultSpec[] faults;
    /** For each host, the indexes of the faults that cover it, in list order. */
    private final int[][] faultsOfHost;
    /** counters[host][j]: requests host received while faultsOfHost[host][j] was active. */
    private final long[][] counters;

    public FaultInjector(List<FaultSpec> faults, Map<String, Integer> hostIndex) {
        this.faults = faults.toArray(new FaultSpec[0]);
        int hosts = hostIndex.size();
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
        for (int h = 0; h < hosts; h++) {
            faultsOfHost[h] = byHost.get(h).stream().mapToInt(Integer::intValue).toArray();
            counters[h] = new long[faultsOfHost[h].length];
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
            if (first) {
                first = false;
                if (fault.fails(k)) {
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

    /** Whether the host is in an active fault that also fails active health checks. */
    public boolean failsHealthCheck(int host, long nanos) {
        for (int f : faultsOfHost[host]) {
            if (faults[f].failsHealthCheck() && faults[f].activeAt(nanos)) {
                return true;
            }
        }
        return false;
    }

    public FaultSpec fault(int index) {
        return faults[index];
    }
}
