package dev.outlierlab.live.spring.boot;

import static dev.outlierlab.live.spring.boot.ServicePoolFactory.bool;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.duration;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.key;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.refused;
import static dev.outlierlab.live.spring.boot.ServicePoolFactory.whole;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.live.LivePoolBuilder;
import java.util.Arrays;
import java.util.Map;

/** Envoy's outlier detection as a service's pool: {@code settings} are Envoy's {@code outlier_detection} fields. */
public final class EnvoyServicePool implements Profile, ServicePoolProfile {
    static final String NAME = "envoy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public LivePoolBuilder builder(String service, String prefix, OutlierLabProperties.Service p) {
        OutlierDetectionConfig.Builder c = OutlierDetectionConfig.builder();
        for (Map.Entry<String, String> e : p.getSettings().entrySet()) {
            envoySetting(c, prefix + "settings.", key(e.getKey()), e.getValue());
        }
        int panic = p.getPanicThreshold() == null ? 50 : p.getPanicThreshold();
        if (panic < 0 || panic > 100) {
            throw refused(prefix + "panic-threshold", Integer.toString(panic), "a percentage from 0 to 100");
        }
        LivePoolBuilder b = LivePoolBuilder.envoy(service, c.build(), panic);
        if (p.getMaxEjectionPercent() != null) {
            throw refused(
                    prefix + "max-ejection-percent",
                    p.getMaxEjectionPercent().toString(),
                    "no value for the Envoy profile: its cap is settings.max_ejection_percent");
        }
        return b;
    }

    private static void envoySetting(OutlierDetectionConfig.Builder c, String prefix, String key, String value) {
        OutlierSetting setting = null;
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.envoyName().equals(key)) {
                setting = s;
            }
        }
        if (setting == null) {
            throw refused(
                    prefix + key,
                    value,
                    "one of Envoy's outlier_detection fields: "
                            + Arrays.stream(OutlierSetting.values())
                                    .map(OutlierSetting::envoyName)
                                    .toList());
        }
        switch (setting.kind()) {
            case DURATION -> c.set(setting, duration(prefix + key, value));
            case BOOLEAN -> c.set(setting, bool(prefix + key, value));
            default -> c.set(setting, whole(prefix + key, value, 0, OutlierSetting.UINT32_MAX));
        }
    }
}
