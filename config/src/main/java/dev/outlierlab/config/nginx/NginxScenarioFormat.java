package dev.outlierlab.config.nginx;

import dev.outlierlab.config.scenario.ScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ServerHosts;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * nginx's passive checks ({@code profile: nginx}): the lab's hosts, traffic and faults through an upstream described
 * by the {@code nginx:} block ({@link NginxBlock}); the hosts are the upstream's servers, in order.
 */
public final class NginxScenarioFormat implements Profile, ScenarioFormat {
    public static final String NAME = "nginx";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 100;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TRACE_REPLAY);
    }

    @Override
    public ScenarioReader.Profiled read(Located document) {
        Located root = ServerHosts.hostsFromBlock(document, NAME, "servers");
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        ScenarioReader.Loaded lab = ScenarioReader.readLabPart(root, NAME, Set.of(NAME));
        NginxUpstreamConfig config =
                NginxBlock.read(top.get(NAME), lab.scenario().cluster().hosts());
        return new ScenarioReader.Profiled(
                Profiles.find(NAME).orElseThrow(),
                new ScenarioReader.Loaded(ServerHosts.onServers(lab.scenario(), config.hosts()), true),
                config);
    }

    @Override
    public String takenBy() {
        return "run, sweep and export";
    }
}
