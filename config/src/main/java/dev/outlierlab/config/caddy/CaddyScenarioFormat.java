package dev.outlierlab.config.caddy;

import dev.outlierlab.config.scenario.ServerScenarioFormat;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import java.util.List;

/**
 * Caddy's passive health checks ({@code profile: caddy}): the lab's hosts, traffic and faults through a
 * {@code reverse_proxy} described by the {@code caddy:} block ({@link CaddyBlock}).
 */
public final class CaddyScenarioFormat extends ServerScenarioFormat<CaddyPassiveConfig> {
    public static final String NAME = "caddy";

    public CaddyScenarioFormat() {
        super(NAME, 120, "upstreams");
    }

    @Override
    protected CaddyPassiveConfig readBlock(Located block, List<String> hosts) {
        return CaddyBlock.read(block, hosts);
    }

    @Override
    protected List<String> servers(CaddyPassiveConfig settings) {
        return settings.upstreams();
    }
}
