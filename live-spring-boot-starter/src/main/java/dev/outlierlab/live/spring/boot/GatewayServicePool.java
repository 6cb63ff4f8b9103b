package dev.outlierlab.live.spring.boot;

import static dev.outlierlab.live.spring.boot.ServicePoolFactory.duration;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.key;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.number;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.refused;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.whole;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.live.LivePoolBuilder;
import java.util.Arrays;
import java.util.Map;

/**
 * The gateway profile as a service's pool: {@code settings} are the gateway's detector settings, the cap is
 * {@code max-ejection-percent}.
 */
public final class GatewayServicePool implements Profile, ServicePoolProfile {
    private static final String[] GATEWAY_KEYS = {
        "window",
        "bucket",
        "min_requests",
        "stdev_factor",
        "peer_set",
        "min_stdev",
        "consecutive_failures",
        "ejection_time"
    };

    @Override
    public String name() {
        return "gateway";
    }

    @Override
    public int rank() {
        return 20;
    }

    @Override
    public LivePoolBuilder builder(String service, String prefix, OutlierLabProperties.Service p) {
        GatewayConfig.Builder g = GatewayConfig.builder();
        for (Map.Entry<String, String> e : p.getSettings().entrySet()) {
            gatewaySetting(g, prefix + "settings.", key(e.getKey()), e.getValue());
        }
        LivePoolBuilder b = LivePoolBuilder.gateway(service, g.build());
        if (p.getMaxEjectionPercent() != null) {
            b.maxEjectionPercent(p.getMaxEjectionPercent());
        }
        return b;
    }

    /** The gateway's settings are refused under their own names; its cap is {@code max-ejection-percent}. */
    @Override
    public String property(String key) {
        String k = key.startsWith("gateway.") ? key.substring("gateway.".length()) : key;
        return k.equals("max_ejection_percent") ? "max-ejection-percent" : "settings." + k;
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
}
