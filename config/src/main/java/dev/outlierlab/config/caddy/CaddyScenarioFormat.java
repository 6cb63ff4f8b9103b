package dev.outlierlab.config.caddy;

import dev.outlierlab.config.scenario.ScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ServerHosts;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Caddy's passive health checks ({@code profile: caddy}): the lab's hosts, traffic and faults through a
 * {@code reverse_proxy} described by the {@code caddy:} block ({@link CaddyBlock}).
 */
public final class CaddyScenarioFormat implements Profile, ScenarioFormat {
    public static final String NAME = "caddy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 120;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.TRACE_REPLAY);
    }

    @Override
    public ScenarioReader.Profiled read(Located document) {
        Located root = ServerHosts.hostsFromBlock(document, NAME, "upstreams");
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        ScenarioReader.Loaded lab = ScenarioReader.readLabPart(root, NAME, Set.of(NAME));
        CaddyPassiveConfig config =
                CaddyBlock.read(top.get(NAME), lab.scenario().cluster().hosts());
        return new ScenarioReader.Profiled(
                Profiles.find(NAME).orElseThrow(),
                new ScenarioReader.Loaded(ServerHosts.onServers(lab.scenario(), config.upstreams()), true),
                config);
    }

    @Override
    public String takenBy() {
        return "run, sweep and export";
    }
}
