package dev.outlierlab.config.haproxy;

import dev.outlierlab.config.scenario.ServerScenarioFormat;
import dev.outlierlab.config.yaml.Located;
import java.util.List;

/**
 * HAProxy's {@code observe} / {@code on-error} checks ({@code profile: haproxy}): the lab's hosts, traffic and faults
 * through a backend described by the {@code haproxy:} block ({@link HaproxyBlock}); a fault's
 * {@code fails_health_check} says whether the health endpoint shares it.
 */
public final class HaproxyScenarioFormat extends ServerScenarioFormat<HaproxyBackend> {
    public static final String NAME = "haproxy";

    public HaproxyScenarioFormat() {
        super(NAME, 110, "servers");
    }

    @Override
    protected HaproxyBackend readBlock(Located block, List<String> hosts) {
        return new HaproxyBackend(HaproxyBlock.backend(block), HaproxyBlock.read(block, hosts));
    }

    @Override
    protected List<String> servers(HaproxyBackend settings) {
        return settings.hosts();
    }
}
