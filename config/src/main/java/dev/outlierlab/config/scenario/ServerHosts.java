package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lab's scenario moved onto a server configuration's servers (an nginx upstream's, a HAProxy backend's, a Caddy
 * reverse_proxy's): the scenario's first host is the first server, and so on, faults following their hosts.
 */
public final class ServerHosts {
    private ServerHosts() {}

    /**
     * The scenario with its hosts renamed to {@code servers}, in order; a fault on a host beyond the last server is
     * refused with one message naming the servers.
     */
    public static Scenario onServers(Scenario s, List<String> servers) {
        List<String> hosts = s.cluster().hosts();
        if (hosts.equals(servers)) {
            return s;
        }
        List<FaultSpec> faults = new ArrayList<>();
        for (FaultSpec f : s.faults()) {
            List<String> renamed = new ArrayList<>();
            for (String h : f.hosts()) {
                int i = hosts.indexOf(h);
                if (i < 0 && servers.contains(h)) {
                    renamed.add(h);
                    continue;
                }
                if (i < 0 || i >= servers.size()) {
                    throw new InputException("faults: host " + h + " is not allowed; the configuration has "
                            + servers.size() + " servers (" + String.join(", ", servers) + "), the scenario's hosts "
                            + String.join(", ", hosts.subList(0, Math.min(servers.size(), hosts.size())))
                            + " in that order");
                }
                renamed.add(servers.get(i));
            }
            faults.add(f.withHosts(renamed));
        }
        return s.toBuilder()
                .cluster(new ClusterSpec(servers, s.cluster().panicThresholdPercent()))
                .faults(faults)
                .build();
    }

    /**
     * The scenario document with {@code cluster.hosts} set to the addresses its profile block lists under
     * {@code listKey} (a string, or a mapping's {@code address}) when the document does not name its hosts, so that
     * its faults may name the servers.
     */
    @SuppressWarnings("unchecked")
    public static Located hostsFromBlock(Located root, String profile, String listKey) {
        Map<String, Located> top = (Map<String, Located>) root.value();
        Located block = top.get(profile);
        if (block == null || !(block.value() instanceof Map<?, ?> b) || !(b.get(listKey) instanceof Located listed)) {
            return root;
        }
        if (!(listed.value() instanceof List<?> items)) {
            return root;
        }
        Located cluster = top.get("cluster");
        if (cluster != null && (!(cluster.value() instanceof Map<?, ?> c) || c.containsKey("hosts"))) {
            return root;
        }
        List<Located> names = new ArrayList<>();
        for (Object item : items) {
            Located l = (Located) item;
            Object v =
                    l.value() instanceof Map<?, ?> m && m.get("address") instanceof Located a ? a.value() : l.value();
            if (!(v instanceof String) && !(v instanceof Long)) {
                return root;
            }
            names.add(new Located(String.valueOf(v), l.origin()));
        }
        Map<String, Located> newCluster =
                new LinkedHashMap<>(cluster == null ? Map.of() : (Map<String, Located>) cluster.value());
        newCluster.put("hosts", new Located(names, listed.origin()));
        Map<String, Located> newTop = new LinkedHashMap<>(top);
        newTop.put("cluster", new Located(newCluster, cluster == null ? root.origin() : cluster.origin()));
        return new Located(newTop, root.origin());
    }
}
