package dev.outlierlab.config.nginx;

import dev.outlierlab.config.scenario.ServerScenarioFormat;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import java.util.List;

/**
 * nginx's passive checks ({@code profile: nginx}): the lab's hosts, traffic and faults through an upstream described
 * by the {@code nginx:} block ({@link NginxBlock}); the hosts are the upstream's servers, in order.
 */
public final class NginxScenarioFormat extends ServerScenarioFormat<NginxUpstreamConfig> {
    public static final String NAME = "nginx";

    public NginxScenarioFormat() {
        super(NAME, 100, "servers");
    }

    @Override
    protected NginxUpstreamConfig readBlock(Located block, List<String> hosts) {
        return NginxBlock.read(block, hosts);
    }

    @Override
    protected List<String> servers(NginxUpstreamConfig settings) {
        return settings.hosts();
    }
}
