package dev.outlierlab.check;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import java.util.Map;

/**
 * A gateway configuration as {@code check} sees it: the {@code gateway:} and {@code routing:} settings with the
 * profile's defaults applied, and the line of each key the file sets (a finding about a key points at it; a
 * key the file leaves out points at its section, or line 1).
 *
 * @param lines {@code gateway.stdev_factor} -> line, {@code gateway} -> line of the section, for keys in the file
 */
public record GatewayTarget(GatewayConfig gateway, RoutingConfig routing, Map<String, Integer> lines) {
    public GatewayTarget {
        lines = Map.copyOf(lines);
    }

    /** The line of a key, else of its section, else 1. */
    public int lineOf(String key) {
        Integer line = lines.get(key);
        if (line == null) {
            line = lines.get(key.substring(0, Math.max(0, key.indexOf('.'))));
        }
        return line == null ? 1 : line;
    }
}
