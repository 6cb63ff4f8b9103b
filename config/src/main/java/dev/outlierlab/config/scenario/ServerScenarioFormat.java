package dev.outlierlab.config.scenario;

import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A proxy server's passive checks as a scenario profile ({@code profile: nginx}, {@code haproxy}, {@code caddy}): the
 * lab's hosts, traffic and faults through the servers that the profile's own block describes. When the block lists
 * its servers and the scenario gives no {@code cluster.hosts}, the hosts are those servers' addresses, in order, so
 * that faults can name them.
 *
 * @param <C> the block's settings as the profile's simulation takes them
 */
public abstract class ServerScenarioFormat<C> implements Profile, ScenarioFormat {
    private final String name;
    private final int rank;
    private final String serversKey;

    /**
     * @param name       the profile's name, also its block's key
     * @param rank       where it stands in lists
     * @param serversKey the block's key listing the servers ({@code servers}, {@code upstreams})
     */
    protected ServerScenarioFormat(String name, int rank, String serversKey) {
        this.name = name;
        this.rank = rank;
        this.serversKey = serversKey;
    }

    /** The block's settings for the lab's hosts. */
    protected abstract C readBlock(Located block, List<String> hosts);

    /** The servers' addresses the settings name, in order. */
    protected abstract List<String> servers(C settings);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final int rank() {
        return rank;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TRACE_REPLAY);
    }

    @Override
    public final ScenarioReader.Profiled read(Located document) {
        Located root = ServerHosts.hostsFromBlock(document, name, serversKey);
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        ScenarioReader.Loaded lab = ScenarioReader.readLabPart(root, name, Set.of(name));
        C settings = readBlock(top.get(name), lab.scenario().cluster().hosts());
        return new ScenarioReader.Profiled(
                Profiles.find(name).orElseThrow(),
                new ScenarioReader.Loaded(ServerHosts.onServers(lab.scenario(), servers(settings)), true),
                settings);
    }

    @Override
    public String takenBy() {
        return "run, sweep and export";
    }
}
