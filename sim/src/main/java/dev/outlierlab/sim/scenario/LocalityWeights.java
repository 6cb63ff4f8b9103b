package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.Map;

/**
 * Envoy's locality-weighted load balancing ({@code common_lb_config.locality_weighted_lb_config}, or a policy's
 * {@code locality_lb_config.locality_weighted_lb_config}) with each locality's {@code load_balancing_weight} from the
 * cluster's {@code load_assignment}: within a priority a locality is chosen first, by its weight times its
 * availability, then a host within it. A locality without a weight has weight 0 and gets no traffic, as in Envoy.
 *
 * @param enabled whether the cluster balances by locality weight
 * @param byZone  each locality's weight, by the zone as {@link RoutingSpec#zones()} writes it
 */
public record LocalityWeights(boolean enabled, Map<String, Integer> byZone) {
    /** No locality weighting: a priority's hosts are picked as one list. */
    public static final LocalityWeights NONE = new LocalityWeights(false, Map.of());

    public LocalityWeights {
        byZone = Map.copyOf(byZone);
        for (Map.Entry<String, Integer> e : byZone.entrySet()) {
            if (e.getValue() < 0 || e.getValue() > 1_000_000) {
                throw new InvalidConfigException(
                        "cluster.locality_weights." + e.getKey(),
                        Integer.toString(e.getValue()),
                        "a whole weight from 0 to 1000000 (Envoy's load_balancing_weight)");
            }
        }
    }

    /** The weight of {@code zone}: its own, 0 when not given. */
    public int weightOf(String zone) {
        return zone == null ? 0 : byZone.getOrDefault(zone, 0);
    }
}
