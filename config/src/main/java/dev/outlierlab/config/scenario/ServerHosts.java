package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

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
        return new Scenario(
                s.name(),
                s.durationNanos(),
                s.seed(),
                new ClusterSpec(servers, s.cluster().panicThresholdPercent()),
                s.traffic(),
                faults,
                s.outlierDetection(),
                s.healthChecks(),
                s.envoyVersion(),
                s.load(),
                s.routing());
    }
}
