package dev.outlierlab.live.spring.boot;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.convert.DurationStyle;

/**
 * Turns one service's properties into its pool, refusing a bad value with one message that names the
 * property ({@code outlier-lab.services.NAME.settings.KEY}), quotes the value and says what is allowed. A
 * duration needs a unit: a bare {@code 10} would be 10 ms in Spring's format and is refused, so that a value
 * meant as seconds cannot tick a hundred times a second.
 */
final class ServicePoolFactory {
    private static final String[] GATEWAY_KEYS = {"window", "bucket", "min_requests", "stdev_factor", "peer_set",
        "min_stdev", "consecutive_failures", "ejection_time"};

    private ServicePoolFactory() {
    }

    static LivePool build(String service, OutlierLabProperties.Service p) {
        String prefix = "outlier-lab.services." + service + ".";
        String profile = p.getProfile() == null ? "envoy" : p.getProfile().trim().toLowerCase(Locale.ROOT);
        LivePoolBuilder b;
        try {
            switch (profile) {
                case "envoy" -> {
                    OutlierDetectionConfig.Builder c = OutlierDetectionConfig.builder();
                    for (Map.Entry<String, String> e : p.getSettings().entrySet()) {
                        envoySetting(c, prefix + "settings.", key(e.getKey()), e.getValue());
                    }
                    int panic = p.getPanicThreshold() == null ? 50 : p.getPanicThreshold();
                    if (panic < 0 || panic > 100) {
                        throw refused(prefix + "panic-threshold", Integer.toString(panic), "a percentage from 0 to 100");
                    }
                    b = LivePoolBuilder.envoy(service, c.build(), panic);
                    if (p.getMaxEjectionPercent() != null) {
                        throw refused(prefix + "max-ejection-percent", p.getMaxEjectionPercent().toString(),
                                "no value for the Envoy profile: its cap is settings.max_ejection_percent");
                    }
                }
                case "gateway" -> {
                    GatewayConfig.Builder g = GatewayConfig.builder();
                    for (Map.Entry<String, String> e : p.getSettings().entrySet()) {
                        gatewaySetting(g, prefix + "settings.", key(e.getKey()), e.getValue());
                    }
                    b = LivePoolBuilder.gateway(service, g.build());
                    if (p.getMaxEjectionPercent() != null) {
                        b.maxEjectionPercent(p.getMaxEjectionPercent());
                    }
                }
                default -> throw refused(prefix + "profile", p.getProfile(), "envoy or gateway");
            }
        } catch (InvalidConfigException e) {
            if (e.key().startsWith("outlier-lab.")) {
                throw e;
            }
            String key = e.key().startsWith("gateway.") ? e.key().substring("gateway.".length()) : e.key();
            throw refused(prefix + (key.equals("max_ejection_percent") && profile.equals("gateway")
                    ? "max-ejection-percent" : "settings." + key), e.value(), e.allowed());
        }
        if (p.getMode() != null) {
            b.mode(mode(prefix + "mode", p.getMode()));
        }
        return b.build();
    }

    static StageMode mode(String property, String value) {
        for (StageMode m : StageMode.values()) {
            if (m.configName().equalsIgnoreCase(value.trim())) {
                return m;
            }
        }
        throw refused(property, value, "off, shadow or prod");
    }

    private static String key(String raw) {
        return raw.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    }

    private static void envoySetting(OutlierDetectionConfig.Builder c, String prefix, String key, String value) {
        OutlierSetting setting = null;
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.envoyName().equals(key)) {
                setting = s;
            }
        }
        if (setting == null) {
            throw refused(prefix + key, value, "one of Envoy's outlier_detection fields: " + Arrays.stream(
                    OutlierSetting.values()).map(OutlierSetting::envoyName).toList());
        }
        switch (setting.kind()) {
            case DURATION -> c.set(setting, duration(prefix + key, value));
            case BOOLEAN -> c.set(setting, bool(prefix + key, value));
            default -> c.set(setting, whole(prefix + key, value, 0, OutlierSetting.UINT32_MAX));
        }
    }

    private static void gatewaySetting(GatewayConfig.Builder g, String prefix, String key, String value) {
        String property = prefix + key;
        switch (key) {
            case "window" -> g.window(duration(property, value));
            case "bucket" -> g.bucket(duration(property, value));
            case "ejection_time" -> g.ejectionTime(duration(property, value));
            case "min_requests" -> g.minRequests((int) whole(property, value, 1, Integer.MAX_VALUE));
            case "consecutive_failures" -> g.consecutiveFailures((int) whole(property, value, 0, Integer.MAX_VALUE));
            case "stdev_factor" -> g.stdevFactor(number(property, value));
            case "min_stdev" -> g.minStdev(number(property, value));
            case "peer_set" -> {
                PeerSet set = null;
                for (PeerSet s : PeerSet.values()) {
                    if (s.name().equalsIgnoreCase(value.trim())) {
                        set = s;
                    }
                }
                if (set == null) {
                    throw refused(property, value, "all or others");
                }
                g.peerSet(set);
            }
            default -> throw refused(property, value, "one of the gateway settings: " + Arrays.toString(GATEWAY_KEYS));
        }
    }

    private static Duration duration(String property, String value) {
        String v = value.trim();
        if (!v.isEmpty() && v.chars().allMatch(Character::isDigit)) {
            throw refused(property, value, "a duration with a unit, such as 10s, 500ms or PT30S");
        }
        try {
            return DurationStyle.detectAndParse(v);
        } catch (IllegalArgumentException e) {
            throw refused(property, value, "a duration with a unit, such as 10s, 500ms or PT30S");
        }
    }

    private static boolean bool(String property, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw refused(property, value, "true or false");
        }
        return v.equals("true");
    }

    private static long whole(String property, String value, long min, long max) {
        try {
            long v = Long.parseLong(value.trim());
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw refused(property, value, "a whole number from " + min + " to " + max);
    }

    private static double number(String property, String value) {
        try {
            double v = Double.parseDouble(value.trim());
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw refused(property, value, "a number such as 2.0");
    }

    private static InvalidConfigException refused(String property, String value, String allowed) {
        String shown = value == null ? "null" : value.length() > 60 ? value.substring(0, 60) + "..." : value;
        return new InvalidConfigException(property, shown, allowed);
    }
}
