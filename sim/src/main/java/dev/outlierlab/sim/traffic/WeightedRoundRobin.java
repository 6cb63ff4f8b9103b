package dev.outlierlab.sim.traffic;

import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Envoy's weighted round robin: earliest-deadline-first scheduling as in {@code edf_scheduler.h}. Each eligible
 * host enters, in host order, with deadline {@code 1 / weight}; a pick takes the earliest deadline (ties go
 * to the earlier entry), moves the scheduler's clock to it and re-enters the host with deadline
 * {@code clock + 1 / weight}. The schedule is rebuilt whenever the eligible hosts change, as Envoy's
 * {@code EdfLoadBalancerBase::refresh} does; when the eligible hosts all weigh the same, Envoy uses plain round
 * robin instead, and so does the lab ({@link LoadBalancer#pick}). Envoy starts a rebuilt schedule after a
 * pseudo-random number of pre-picks ({@code EdfScheduler::createWithPicks}); the lab starts it at zero, so
 * the same scenario always gives the same picks.
 */
public final class WeightedRoundRobin {
    private record Entry(double deadline, long order, int host) {}

    private final double[] weight;
    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) ->
            a.deadline != b.deadline ? Double.compare(a.deadline, b.deadline) : Long.compare(a.order, b.order));
    private long builtVersion = -1;
    private boolean equalWeights;
    private double clock;
    private long order;

    public WeightedRoundRobin(List<String> hosts, Map<String, Long> weights) {
        weight = new double[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            weight[h] = weights.getOrDefault(hosts.get(h), 1L);
        }
    }

    /** The host for request {@code i}, or -1 when no host is eligible. */
    public int pick(LoadBalancer balancer, long i) {
        if (balancer.version() != builtVersion) {
            rebuild(balancer);
        }
        if (equalWeights || queue.isEmpty() || balancer.splitsByPriorityLoad()) {
            // with degraded hosts taking a share, the lab splits by priority load and walks each group unweighted
            return balancer.pick(i);
        }
        Entry e = queue.poll();
        clock = e.deadline;
        queue.add(new Entry(clock + 1.0 / weight[e.host], order++, e.host));
        return e.host;
    }

    private void rebuild(LoadBalancer balancer) {
        builtVersion = balancer.version();
        queue.clear();
        clock = 0;
        order = 0;
        int n = balancer.eligibleCount();
        equalWeights = true;
        for (int k = 0; k < n; k++) {
            int host = balancer.pick(k);
            if (weight[host] != weight[balancer.pick(0)]) {
                equalWeights = false;
            }
            queue.add(new Entry(1.0 / weight[host], order++, host));
        }
    }
}
