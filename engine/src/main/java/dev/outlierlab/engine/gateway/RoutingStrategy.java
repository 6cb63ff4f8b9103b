package dev.outlierlab.engine.gateway;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.Locale;

/**
 * How a gateway orders a request's candidates (docs/gateway.md): {@code ordered} (always the
 * listed order: the first endpoint gets everything it can take), {@code round_robin} (a rotation per
 * process), {@code weighted} (nginx's smooth weighted round robin picks the first, the rest follow in listed
 * order).
 */
public enum RoutingStrategy {
    ORDERED,
    ROUND_ROBIN,
    WEIGHTED;

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RoutingStrategy parse(String key, String value) {
        for (RoutingStrategy s : values()) {
            if (s.configName().equals(value)) {
                return s;
            }
        }
        throw new InvalidConfigException(key, "\"" + value + "\"", "one of ordered, round_robin, weighted");
    }
}
