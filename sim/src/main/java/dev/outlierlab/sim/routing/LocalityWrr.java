package dev.outlierlab.sim.routing;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Envoy's locality-weighted pick for one caller ({@code source/common/upstream/locality_wrr.cc}, {@code LocalityWrr},
 * used by {@code ZoneAwareLoadBalancerBase::hostSourceToUse} when {@code locality_weighted_lb_config} is set): within
 * each priority, the hosts are grouped by locality (in the order they first appear); each locality's effective weight
 * is {@code load_balancing_weight * min(1, overprovisioning_factor / 100 * eligible / hosts)}
 * ({@code effectiveLocalityWeight}), and an {@link EdfScheduler} over the localities with a positive one picks the
 * locality of each request, rebuilt with a fresh seed of pre-picks whenever the hosts' health changes, as Envoy
 * rebuilds it on each host-set update. The healthy and the degraded hosts have one scheduler each; without an eligible
 * host (or with every weight 0) there is none, and the priority's hosts are picked as one list.
 */
final class LocalityWrr {
    private final int[][] localityOf;
    private final int[][] weights;
    private final int[][] totals;
    private final int[][][][] hosts;
    private final int[][][] sizes;
    private final EdfScheduler[][] schedulers;
    private final double[][][] effective;
    private final long[][][] rrIndex;
    private final int[][][] entryLocality;

    private LocalityWrr(int levels) {
        localityOf = new int[levels][];
        weights = new int[levels][];
        totals = new int[levels][];
        hosts = new int[levels][2][][];
        sizes = new int[levels][2][];
        schedulers = new EdfScheduler[levels][2];
        effective = new double[levels][2][];
        rrIndex = new long[levels][2][];
        entryLocality = new int[levels][2][];
    }

    /** The locality-weighted pick over these priority levels' members, or null where the routing has none. */
    static LocalityWrr of(RoutingSpec spec, List<String> names, int[][] members, int caller) {
        if (!spec.weighsLocalities()) {
            return null;
        }
        LocalityWrr w = new LocalityWrr(members.length);
        for (int p = 0; p < members.length; p++) {
            List<String> zones = new ArrayList<>();
            w.localityOf[p] = new int[members[p].length];
            for (int k = 0; k < members[p].length; k++) {
                String zone = spec.zones().getOrDefault(names.get(members[p][k]), "");
                int index = zones.indexOf(zone);
                if (index < 0) {
                    index = zones.size();
                    zones.add(zone);
                }
                w.localityOf[p][k] = index;
            }
            int n = zones.size();
            w.weights[p] = new int[n];
            w.totals[p] = new int[n];
            for (int l = 0; l < n; l++) {
                w.weights[p][l] = spec.localityWeights().weightOf(zones.get(l));
            }
            for (int l : w.localityOf[p]) {
                w.totals[p][l]++;
            }
            for (int src = 0; src < 2; src++) {
                w.hosts[p][src] = new int[n][];
                for (int l = 0; l < n; l++) {
                    w.hosts[p][src][l] = new int[w.totals[p][l]];
                }
                w.sizes[p][src] = new int[n];
                w.effective[p][src] = new double[n];
                w.rrIndex[p][src] = new long[n];
                Arrays.fill(w.rrIndex[p][src], caller);
            }
        }
        return w;
    }

    /**
     * {@code rebuildLocalityScheduler} for priority {@code p}: its eligible hosts by locality, then the scheduler.
     *
     * @param src      0 for the healthy hosts, 1 for the degraded ones
     * @param eligible host indexes in rotation of that kind, {@code count} of them, in the priority's member order
     * @param members  the priority's members, to find each eligible host's locality
     */
    void rebuild(int p, int src, int[] eligible, int count, int[] members, long factor, SeededRandom random) {
        int n = weights[p].length;
        Arrays.fill(sizes[p][src], 0);
        for (int i = 0, k = 0; i < count; i++) {
            while (members[k] != eligible[i]) {
                k++;
            }
            int l = localityOf[p][k];
            hosts[p][src][l][sizes[p][src][l]++] = eligible[i];
        }
        schedulers[p][src] = null;
        Arrays.fill(effective[p][src], 0);
        if (count == 0) {
            return;
        }
        List<Integer> positive = new ArrayList<>();
        for (int l = 0; l < n; l++) {
            double ratio = totals[p][l] == 0 ? 0 : 1.0 * sizes[p][src][l] / totals[p][l];
            effective[p][src][l] = weights[p][l] * Math.min(1.0, (factor / 100.0) * ratio);
            if (effective[p][src][l] > 0) {
                positive.add(l);
            }
        }
        if (positive.isEmpty()) {
            return;
        }
        double[] w = new double[positive.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = effective[p][src][positive.get(i)];
        }
        EdfScheduler edf = EdfScheduler.createWithPicks(w, random.next());
        int[] byEntry = positive.stream().mapToInt(Integer::intValue).toArray();
        schedulers[p][src] = edf;
        entryLocality[p][src] = byEntry;
    }

    /** {@code chooseHealthyLocality} / {@code chooseDegradedLocality}: a locality index, or -1 without a scheduler. */
    int choose(int p, int src) {
        EdfScheduler edf = schedulers[p][src];
        return edf == null ? -1 : entryLocality[p][src][edf.pickAndAdd()];
    }

    int[] hosts(int p, int src, int locality) {
        return hosts[p][src][locality];
    }

    int size(int p, int src, int locality) {
        return sizes[p][src][locality];
    }

    /** The round-robin index of this locality's host list ({@code rr_indexes_} per hosts source), then advanced. */
    long nextRoundRobin(int p, int src, int locality) {
        return rrIndex[p][src][locality]++;
    }

    /**
     * Adds each eligible host's expected share of {@code load} percent to {@code out}: the localities' effective
     * weights split the load, each locality's hosts share it evenly. False without a scheduler (nothing added).
     */
    boolean addShares(int p, int src, double load, double[] out) {
        if (schedulers[p][src] == null) {
            return false;
        }
        double sum = 0;
        for (double e : effective[p][src]) {
            sum += e;
        }
        for (int l = 0; l < effective[p][src].length; l++) {
            for (int i = 0; i < sizes[p][src][l]; i++) {
                out[hosts[p][src][l][i]] += load * effective[p][src][l] / sum / sizes[p][src][l];
            }
        }
        return true;
    }
}
