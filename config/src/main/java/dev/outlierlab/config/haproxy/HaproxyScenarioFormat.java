package dev.outlierlab.config.haproxy;

import dev.outlierlab.config.scenario.ScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ServerHosts;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * HAProxy's {@code observe} / {@code on-error} checks ({@code profile: haproxy}): the lab's hosts, traffic and faults
 * through a backend described by the {@code haproxy:} block ({@link HaproxyBlock}); a fault's
 * {@code fails_health_check} says whether the health endpoint shares it.
 */
public final class HaproxyScenarioFormat implements Profile, ScenarioFormat {
    public static final String NAME = "haproxy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 110;
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
        Located block = top.get(NAME);
        HaproxyBackend backend = new HaproxyBackend(
                HaproxyBlock.backend(block),
                HaproxyBlock.read(block, lab.scenario().cluster().hosts()));
        return new ScenarioReader.Profiled(
                Profiles.find(NAME).orElseThrow(),
                new ScenarioReader.Loaded(ServerHosts.onServers(lab.scenario(), backend.hosts()), true),
                backend);
    }

    @Override
    public String takenBy() {
        return "run, sweep and export";
    }
}
