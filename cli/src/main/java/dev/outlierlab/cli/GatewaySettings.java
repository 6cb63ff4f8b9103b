package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.DurationText;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.stage.StageMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The gateway profile's settings for {@code proxy}: the seed's defaults, then the {@code gateway:} map of a
 * settings file, then {@code --set gateway.KEY=VALUE} overrides (gateway-profile.md section 1). Bad input
 * throws {@link InputException} naming the key, the value and what is allowed.
 */
final class GatewaySettings {
    static final List<String> KEYS = List.of("mode", "window", "bucket", "min_requests", "stdev_factor", "peer_set",
            "min_stdev", "consecutive_failures", "ejection_time");

    private GatewaySettings() {
    }

    static GatewayConfig read(String fileText, String source, List<String> sets) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (fileText != null) {
            Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(fileText);
            if (root != null && !(root instanceof Map<?, ?>)) {
                throw new InputException(source + ": expected a map with a gateway: section");
            }
            Object gateway = root == null ? null : ((Map<?, ?>) root).get("gateway");
            if (gateway != null && !(gateway instanceof Map<?, ?>)) {
                throw new InputException(source + ": gateway: expected a map of settings");
            }
            if (gateway != null) {
                ((Map<?, ?>) gateway).forEach((k, v) -> values.put("gateway." + k, v));
            }
        }
        for (String set : sets) {
            int eq = set.indexOf('=');
            if (eq <= 0) {
                throw new InputException("--set: \"" + set + "\" is not KEY=VALUE, e.g. --set gateway.ejection_time=10s");
            }
            values.put(set.substring(0, eq).trim(), set.substring(eq + 1).trim());
        }
        GatewayConfig d = GatewayConfig.defaults();
        StageMode mode = d.mode();
        long window = d.windowNanos();
        long bucket = d.bucketNanos();
        int minRequests = d.minRequests();
        double factor = d.stdevFactor();
        PeerSet peerSet = d.peerSet();
        double minStdev = d.minStdevPercent();
        int consecutive = d.consecutiveFailures();
        long ejection = d.ejectionTimeNanos();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String key = e.getKey();
            String name = key.startsWith("gateway.") ? key.substring("gateway.".length()) : null;
            if (name == null || !KEYS.contains(name)) {
                throw new InputException("unknown setting " + key + " for --profile gateway; known: gateway."
                        + String.join(", gateway.", KEYS));
            }
            Object v = e.getValue();
            String text = String.valueOf(v);
            switch (name) {
                case "mode" -> mode = StageMode.parse(key, text);
                case "window" -> window = duration(key, v);
                case "bucket" -> bucket = duration(key, v);
                case "min_requests" -> minRequests = whole(key, text);
                case "stdev_factor" -> factor = number(key, text);
                case "peer_set" -> peerSet = PeerSet.parse(key, text);
                case "min_stdev" -> minStdev = number(key, text);
                case "consecutive_failures" -> consecutive = whole(key, text);
                default -> ejection = duration(key, v);
            }
        }
        return new GatewayConfig(mode, window, bucket, minRequests, factor, peerSet, minStdev, consecutive, ejection, 1);
    }

    private static long duration(String key, Object v) {
        try {
            return DurationText.parse(v instanceof Integer i ? Long.valueOf(i) : v instanceof Double x
                    ? new java.math.BigDecimal(x.toString()) : v);
        } catch (IllegalArgumentException e) {
            throw new InputException(key + ": \"" + v + "\" is not allowed; use " + e.getMessage());
        }
    }

    private static int whole(String key, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new InputException(key + ": \"" + text + "\" is not allowed; use a whole number");
        }
    }

    private static double number(String key, String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new InputException(key + ": \"" + text + "\" is not allowed; use a number such as 2.0");
        }
    }
}
