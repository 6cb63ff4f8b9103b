package dev.outlierlab.engine.gateway;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.List;

/**
 * The gateway's routing settings (docs/gateway.md): the strategy, the weights for
 * {@code weighted} (one positive integer per endpoint, empty otherwise) and the fallbacks: after a failed
 * attempt, up to this many next candidates are tried.
 */
public record RoutingConfig(RoutingStrategy strategy, List<Integer> weights, int fallbacks) {
    /** The largest weight accepted, so that nginx's running sums cannot overflow. */
    public static final int MAX_WEIGHT = 1_000_000;

    public RoutingConfig {
        if (strategy == null) {
            throw new InvalidConfigException("routing.strategy", "null", "one of ordered, round_robin, weighted");
        }
        weights = List.copyOf(weights);
        for (int i = 0; i < weights.size(); i++) {
            int w = weights.get(i);
            if (w < 1 || w > MAX_WEIGHT) {
                throw new InvalidConfigException(
                        "routing.weights[" + i + "]", Integer.toString(w), "a whole number from 1 to " + MAX_WEIGHT);
            }
        }
        if (strategy != RoutingStrategy.WEIGHTED && !weights.isEmpty()) {
            throw new InvalidConfigException(
                    "routing.weights",
                    weights.toString(),
                    "no weights unless strategy is weighted (strategy is " + strategy.configName() + ")");
        }
        if (fallbacks < 0) {
            throw new InvalidConfigException(
                    "routing.fallbacks", Integer.toString(fallbacks), "a whole number of 0 or more");
        }
    }

    /** Round robin, no weights, no fallbacks: the spec's defaults. */
    public static RoutingConfig defaults() {
        return new RoutingConfig(RoutingStrategy.ROUND_ROBIN, List.of(), 0);
    }

    /** Checks the settings against the endpoint count: weighted needs exactly one weight per endpoint. */
    public void validateFor(int endpoints) {
        if (strategy == RoutingStrategy.WEIGHTED && weights.size() != endpoints) {
            throw new InvalidConfigException(
                    "routing.weights",
                    weights.toString(),
                    "one positive whole number per endpoint (" + endpoints + " endpoints, " + weights.size()
                            + " weights)");
        }
    }

    /** A new router for one process over {@code endpoints} endpoints. */
    public CandidateRouter newRouter(int endpoints) {
        validateFor(endpoints);
        return switch (strategy) {
            case ORDERED -> RoundRobinRouter.listedOrder(endpoints);
            case ROUND_ROBIN -> new RoundRobinRouter(endpoints);
            case WEIGHTED ->
                new SmoothWeightedRouter(
                        weights.stream().mapToInt(Integer::intValue).toArray());
        };
    }

    public RoutingConfig withFallbacks(int newFallbacks) {
        return new RoutingConfig(strategy, weights, newFallbacks);
    }
}
