package dev.outlierlab.sim.routing;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.PanicRule;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.Arrays;
import java.util.List;

/**
 * One caller's Envoy load balancer over priority levels, as {@code source/extensions/load_balancing_policies/common/
 * load_balancer_impl.cc} computes it. The hosts' state (ejected, failed by health checking, degraded) is the caller's
 * {@link LoadBalancer}'s; this class decides where each request goes:
 * <ul>
 *   <li>{@code LoadBalancerBase::recalculatePerPriorityState}: each priority's healthy availability
 *       {@code min(100, overprovisioning_factor * healthy / hosts)} and degraded availability likewise, in integer
 *       arithmetic; their sum over priorities capped at 100 ({@code calculateNormalizedTotalAvailability}); then
 *       {@code distributeLoad} gives priority {@code p} {@code min(rest, availability[p] * 100 / normalized)} of the
 *       load, first to healthy hosts then to degraded ones, a rounding remainder to the first available priority.
 *       So with the default factor 140 a priority keeps all its traffic down to 5 healthy hosts of 7, and the
 *       share it cannot take spills to the next priority. When no priority has availability the loads stay as
 *       they were, as in Envoy.</li>
 *   <li>{@code recalculatePerPriorityPanic}: no priority is in panic while the normalized availability is 100;
 *       otherwise priority {@code p} is while its healthy (and degraded) share is below {@code
 *       healthy_panic_threshold} ({@code isHostSetInPanic}); with every priority in panic
 *       ({@code recalculateLoadInTotalPanic}) the load follows the priorities' host counts; with panic off and no
 *       host available, priority 0 takes it all (and finds no host).</li>
 *   <li>{@code choosePriority}: a random hash {@code mod 100 + 1} against the cumulative healthy loads, then the
 *       degraded ones; {@code ZoneAwareLoadBalancerBase::hostSourceToUse}: a priority in panic gives all its hosts,
 *       or none with {@code fail_traffic_on_panic}; otherwise its healthy (or degraded) hosts.</li>
 *   <li>The pick within them ({@code unweightedHostPick}): {@code ROUND_ROBIN} walks one index per host source
 *       ({@code rr_indexes_}, kept across list changes; each caller's starts at its number, where Envoy starts at a
 *       random seed); {@code LEAST_REQUEST} samples {@code choice_count} hosts at random and keeps the first unless a
 *       later one has fewer active requests ({@code unweightedHostPickNChoices}); in the lab every response is
 *       immediate, so no host has an active request and the first sample is kept; {@code RANDOM} takes the
 *       priority's hash modulo the hosts ({@code RandomLoadBalancer::peekOrChoose}).</li>
 * </ul>
 * With {@code locality_weighted_lb_config} a priority not in panic first picks a locality ({@link LocalityWrr}), then
 * a host among that locality's healthy (or degraded) hosts by the policy, each locality's host list with its own
 * round-robin index. Zone-aware routing against a local cluster is not modelled: without locality weights the hosts
 * of one priority are picked as one list, as Envoy does without a local cluster.
 */
public final class PriorityRouter {
    private static final int ALL = 0;
    private static final int HEALTHY = 1;
    private static final int DEGRADED = 2;

    private final LoadBalancer balancer;
    private final LbPolicy policy;
    private final int choiceCount;
    private final long factor;
    private final boolean failOnPanic;
    private final long panicThreshold;
    private final SeededRandom random;
    private final int[][] members;
    private final int[][][] sources;
    private final int[][] sourceSizes;
    private final long[][] rrIndex;
    private final long[] health;
    private final long[] degradedAvailability;
    private final int[] healthyLoad;
    private final int[] degradedLoad;
    private final boolean[] panic;
    private LocalityWrr localities;
    private long seenVersion = -1;
    private boolean lastPanic;
    private int lastPriority;

    /**
     * @param priorities each host's priority level (from 0, without gaps)
     * @param caller     the caller's number: where its round-robin indexes start
     * @param seed       the caller's seed; the router draws from a stream derived from it
     */
    public PriorityRouter(
            RoutingSpec spec,
            double panicThresholdPercent,
            int[] priorities,
            int caller,
            long seed,
            LoadBalancer balancer) {
        this.balancer = balancer;
        this.policy = spec.lbPolicy().modelled() ? spec.lbPolicy() : LbPolicy.ROUND_ROBIN;
        this.choiceCount = spec.choiceCount();
        this.factor = spec.overprovisioningFactor();
        this.failOnPanic = spec.failTrafficOnPanic();
        this.panicThreshold = PanicRule.of(panicThresholdPercent).thresholdPercent();
        this.random = new SeededRandom(seed ^ 0x0B57AC1E5EEDL);
        int levels = Arrays.stream(priorities).max().orElse(0) + 1;
        int[] counts = new int[levels];
        for (int p : priorities) {
            counts[p]++;
        }
        this.members = new int[levels][];
        int[] fill = new int[levels];
        for (int p = 0; p < levels; p++) {
            members[p] = new int[counts[p]];
        }
        for (int h = 0; h < priorities.length; h++) {
            members[priorities[h]][fill[priorities[h]]++] = h;
        }
        this.sources = new int[levels][3][];
        this.sourceSizes = new int[levels][3];
        this.rrIndex = new long[levels][3];
        for (int p = 0; p < levels; p++) {
            for (int s = 0; s < 3; s++) {
                sources[p][s] = new int[counts[p]];
                rrIndex[p][s] = caller;
            }
        }
        this.health = new long[levels];
        this.degradedAvailability = new long[levels];
        this.healthyLoad = new int[levels];
        this.degradedLoad = new int[levels];
        this.panic = new boolean[levels];
    }

    /**
     * The router of caller {@code caller} over the hosts {@code names}: its priorities by istiod's locality failover
     * or the cluster's ({@link LocalityPriority#forCaller}), and the locality-weighted pick where the routing has one.
     */
    public static PriorityRouter forCaller(
            RoutingSpec spec,
            double panicThresholdPercent,
            List<String> names,
            int caller,
            long seed,
            LoadBalancer balancer) {
        PriorityRouter r = new PriorityRouter(
                spec, panicThresholdPercent, LocalityPriority.forCaller(spec, names, caller), caller, seed, balancer);
        r.localities = LocalityWrr.of(spec, names, r.members, caller);
        return r;
    }

    /** How many priority levels the caller's hosts form. */
    public int levels() {
        return members.length;
    }

    /**
     * The host for the next pick, or -1 when Envoy finds none (no host in the chosen source, or a priority in panic
     * with {@code fail_traffic_on_panic}).
     */
    public int pick() {
        refresh();
        long hash = random.next();
        int p = choosePriority(Long.remainderUnsigned(hash, 100) + 1);
        boolean degraded = p < 0;
        if (degraded) {
            p = -p - 1;
        }
        lastPriority = p;
        lastPanic = panic[p];
        int source;
        if (panic[p]) {
            if (failOnPanic) {
                return -1;
            }
            source = ALL;
        } else {
            source = degraded ? DEGRADED : HEALTHY;
        }
        int size = sourceSizes[p][source];
        if (size == 0) {
            return -1;
        }
        if (localities != null && source != ALL) {
            int src = source == HEALTHY ? 0 : 1;
            int locality = localities.choose(p, src);
            if (locality >= 0) {
                int[] in = localities.hosts(p, src, locality);
                int n = localities.size(p, src, locality);
                return switch (policy) {
                    case RANDOM -> in[(int) Long.remainderUnsigned(hash, n)];
                    case LEAST_REQUEST -> leastRequest(in, n);
                    default -> in[(int) Long.remainderUnsigned(localities.nextRoundRobin(p, src, locality), n)];
                };
            }
        }
        int[] hosts = sources[p][source];
        return switch (policy) {
            case RANDOM -> hosts[(int) Long.remainderUnsigned(hash, size)];
            case LEAST_REQUEST -> leastRequest(hosts, size);
            default -> hosts[(int) Long.remainderUnsigned(rrIndex[p][source]++, size)];
        };
    }

    /** {@code unweightedHostPickNChoices}: every host has 0 active requests, so the first sample is kept. */
    private int leastRequest(int[] hosts, int size) {
        int candidate = hosts[(int) Long.remainderUnsigned(random.next(), size)];
        for (int i = 1; i < choiceCount; i++) {
            random.next();
        }
        return candidate;
    }

    /** Whether the last pick was made in its priority's panic. */
    public boolean lastPickInPanic() {
        return lastPanic;
    }

    /** The priority of the last pick. */
    public int lastPriority() {
        return lastPriority;
    }

    /** Whether any priority is in panic now. */
    public boolean anyPanic() {
        refresh();
        for (boolean b : panic) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /** The healthy load of each priority now, in percent (for reports and tests). */
    public int[] healthyLoads() {
        refresh();
        return healthyLoad.clone();
    }

    /** The degraded load of each priority now, in percent. */
    public int[] degradedLoads() {
        refresh();
        return degradedLoad.clone();
    }

    /**
     * Each host's expected share of this caller's picks now, in percent: its priority's healthy (or degraded) load
     * spread evenly over that priority's healthy (or degraded) hosts, or over all its hosts in panic; nothing in a
     * priority in panic with {@code fail_traffic_on_panic}.
     */
    public double[] expectedShares() {
        refresh();
        double[] out = new double[balancer.hostCount()];
        for (int p = 0; p < members.length; p++) {
            if (panic[p]) {
                if (!failOnPanic && sourceSizes[p][ALL] > 0) {
                    int load = healthyLoad[p] + degradedLoad[p];
                    for (int k = 0; k < sourceSizes[p][ALL]; k++) {
                        out[sources[p][ALL][k]] += (double) load / sourceSizes[p][ALL];
                    }
                }
                continue;
            }
            if (localities == null || !localities.addShares(p, 0, healthyLoad[p], out)) {
                for (int k = 0; k < sourceSizes[p][HEALTHY]; k++) {
                    out[sources[p][HEALTHY][k]] += (double) healthyLoad[p] / sourceSizes[p][HEALTHY];
                }
            }
            if (localities == null || !localities.addShares(p, 1, degradedLoad[p], out)) {
                for (int k = 0; k < sourceSizes[p][DEGRADED]; k++) {
                    out[sources[p][DEGRADED][k]] += (double) degradedLoad[p] / sourceSizes[p][DEGRADED];
                }
            }
        }
        return out;
    }

    /** Whether each priority is in panic now. */
    public boolean[] panics() {
        refresh();
        return panic.clone();
    }

    /** A priority whose healthy load covers {@code hash} (1..100), or {@code -p - 1} for priority p's degraded. */
    private int choosePriority(long hash) {
        long aggregate = 0;
        for (int p = 0; p < healthyLoad.length; p++) {
            aggregate += healthyLoad[p];
            if (hash <= aggregate) {
                return p;
            }
        }
        for (int p = 0; p < degradedLoad.length; p++) {
            aggregate += degradedLoad[p];
            if (hash <= aggregate) {
                return -p - 1;
            }
        }
        return 0;
    }

    private void refresh() {
        long version = balancer.version();
        if (version == seenVersion) {
            return;
        }
        seenVersion = version;
        for (int p = 0; p < members.length; p++) {
            int healthy = 0;
            int degraded = 0;
            int all = 0;
            for (int h : members[p]) {
                sources[p][ALL][all++] = h;
                boolean inRotation = !balancer.isEjected(h) && !balancer.isHealthCheckFailed(h);
                if (inRotation && balancer.isDegraded(h)) {
                    sources[p][DEGRADED][degraded++] = h;
                } else if (inRotation) {
                    sources[p][HEALTHY][healthy++] = h;
                }
            }
            sourceSizes[p][ALL] = all;
            sourceSizes[p][HEALTHY] = healthy;
            sourceSizes[p][DEGRADED] = degraded;
            if (localities != null) {
                localities.rebuild(p, 0, sources[p][HEALTHY], healthy, members[p], factor, random);
                localities.rebuild(p, 1, sources[p][DEGRADED], degraded, members[p], factor, random);
            }
            health[p] = all == 0 ? 0 : Math.min(100, factor * healthy / all);
            degradedAvailability[p] = all == 0 ? 0 : Math.min(100, factor * degraded / all);
        }
        long normalized = normalizedTotal();
        if (normalized > 0) {
            distribute(normalized);
        }
        recalculatePanic(normalized);
    }

    private long normalizedTotal() {
        long sum = 0;
        for (int p = 0; p < health.length; p++) {
            sum += health[p] + degradedAvailability[p];
        }
        return Math.min(100, sum);
    }

    /** {@code distributeLoad} for healthy then degraded availability, the remainder to the first available. */
    private void distribute(long normalized) {
        long total = 100;
        int firstHealthy = -1;
        for (int p = 0; p < health.length; p++) {
            if (firstHealthy < 0 && health[p] > 0) {
                firstHealthy = p;
            }
            healthyLoad[p] = (int) Math.min(total, health[p] * 100 / normalized);
            total -= healthyLoad[p];
        }
        int firstDegraded = -1;
        for (int p = 0; p < degradedAvailability.length; p++) {
            if (firstDegraded < 0 && degradedAvailability[p] > 0) {
                firstDegraded = p;
            }
            degradedLoad[p] = (int) Math.min(total, degradedAvailability[p] * 100 / normalized);
            total -= degradedLoad[p];
        }
        if (total != 0) {
            if (firstHealthy != -1) {
                healthyLoad[firstHealthy] += (int) total;
            } else {
                degradedLoad[firstDegraded] += (int) total;
            }
        }
    }

    /** {@code recalculatePerPriorityPanic}, and {@code recalculateLoadInTotalPanic} when every priority panics. */
    private void recalculatePanic(long normalized) {
        if (panicThreshold == 0 && normalized == 0) {
            Arrays.fill(panic, false);
            healthyLoad[0] = 100;
            return;
        }
        boolean total = true;
        for (int p = 0; p < panic.length; p++) {
            panic[p] = normalized != 100 && inPanic(p);
            total = total && panic[p];
        }
        if (total) {
            int hosts = 0;
            for (int[] m : members) {
                hosts += m.length;
            }
            long load = 100;
            int firstNonEmpty = -1;
            for (int p = 0; p < members.length; p++) {
                if (firstNonEmpty < 0 && members[p].length > 0) {
                    firstNonEmpty = p;
                }
                healthyLoad[p] = 100 * members[p].length / hosts;
                degradedLoad[p] = 0;
                load -= healthyLoad[p];
            }
            healthyLoad[firstNonEmpty] += (int) load;
        }
    }

    /** {@code isHostSetInPanic}: the healthy and degraded shares, in doubles, below the threshold. */
    private boolean inPanic(int p) {
        int all = sourceSizes[p][ALL];
        double healthy = all == 0 ? 0.0 : 100.0 * sourceSizes[p][HEALTHY] / all;
        double degraded = all == 0 ? 0.0 : 100.0 * sourceSizes[p][DEGRADED] / all;
        return healthy + degraded < panicThreshold;
    }
}
