package dev.outlierlab.sim.routing;

import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * istiod's locality failover for one caller ({@code applyLocalityFailover} in
 * {@code pilot/pkg/networking/core/loadbalancer/loadbalancer.go}, with {@code util.LbPriority}): an endpoint whose
 * region, zone and subzone all match the caller's is at priority 0, region and zone 1, region only 2, none 3, added
 * to the endpoint's own priority times 5; the priorities are then renumbered 0, 1, 2, ... in order, without gaps.
 * A zone is written {@code region/zone} or {@code region/zone/subzone}; a name without a slash ({@code zone-a}) is a
 * zone of one unnamed region.
 */
public final class LocalityPriority {
    private LocalityPriority() {}

    /** {@code util.LbPriority}: 0 to 3 by how much of {@code callerZone} the endpoint's {@code hostZone} shares. */
    public static int lbPriority(String callerZone, String hostZone) {
        String[] caller = parts(callerZone);
        String[] host = parts(hostZone);
        if (!caller[0].equals(host[0])) {
            return 3;
        }
        if (!caller[1].equals(host[1])) {
            return 2;
        }
        if (!caller[2].equals(host[2])) {
            return 1;
        }
        return 0;
    }

    /**
     * Each host's priority for a caller in {@code callerZone}: its own priority (0 when not named) times 5 plus its
     * locality priority, renumbered without gaps, as istiod sends them to that caller.
     */
    public static int[] priorities(
            List<String> hosts, Map<String, Integer> own, Map<String, String> zones, String callerZone) {
        int[] raw = new int[hosts.size()];
        TreeSet<Integer> distinct = new TreeSet<>();
        for (int h = 0; h < hosts.size(); h++) {
            String zone = zones.getOrDefault(hosts.get(h), "");
            raw[h] = own.getOrDefault(hosts.get(h), 0) * 5 + lbPriority(callerZone, zone);
            distinct.add(raw[h]);
        }
        List<Integer> order = List.copyOf(distinct);
        int[] out = new int[raw.length];
        for (int h = 0; h < raw.length; h++) {
            out[h] = order.indexOf(raw[h]);
        }
        return out;
    }

    /**
     * Each host's priority for caller {@code c}: istiod's locality failover relative to the caller's zone where it
     * applies ({@link RoutingSpec#failsOverByZone()}), else the cluster's own priorities (0 for a host not named).
     */
    public static int[] forCaller(RoutingSpec routing, List<String> hosts, int c) {
        if (routing.failsOverByZone()) {
            return priorities(hosts, routing.priorities(), routing.zones(), routing.callerZone(c));
        }
        int[] out = new int[hosts.size()];
        for (int h = 0; h < out.length; h++) {
            out[h] = routing.priorities().getOrDefault(hosts.get(h), 0);
        }
        return out;
    }

    /** {@code region}, {@code zone}, {@code subzone}, missing ones empty. */
    private static String[] parts(String zone) {
        String[] out = {"", "", ""};
        if (zone == null) {
            return out;
        }
        String[] p = zone.split("/", 3);
        if (p.length == 1) {
            out[1] = p[0];
            return out;
        }
        System.arraycopy(p, 0, out, 0, p.length);
        return out;
    }
}
