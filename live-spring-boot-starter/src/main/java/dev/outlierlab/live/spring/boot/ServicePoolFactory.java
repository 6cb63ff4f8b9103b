package dev.outlierlab.live.spring.boot;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import java.time.Duration;
import java.util.Locale;
import org.springframework.boot.convert.DurationStyle;

/**
 * Turns one service's properties into its pool, refusing a bad value with one message that names the
 * property ({@code outlier-lab.services.NAME.settings.KEY}), quotes the value and says what is allowed. A
 * duration needs a unit: a bare {@code 10} would be 10 ms in Spring's format and is refused, so that a value
 * meant as seconds cannot tick a hundred times a second. The profile's own settings are read by its
 * {@link ServicePoolProfile}, found by name in the profile registry.
 */
final class ServicePoolFactory {
    private ServicePoolFactory() {}

    static LivePool build(String service, OutlierLabProperties.Service p) {
        String prefix = "outlier-lab.services." + service + ".";
        String name = p.getProfile() == null
                ? EnvoyServicePool.NAME
                : p.getProfile().trim().toLowerCase(Locale.ROOT);
        ServicePoolProfile profile = Profiles.facet(
                name, ServicePoolProfile.class, names -> refused(prefix + "profile", p.getProfile(), names));
        LivePoolBuilder b;
        try {
            b = profile.builder(service, prefix, p);
        } catch (InvalidConfigException e) {
            if (e.key().startsWith("outlier-lab.")) {
                throw e;
            }
            throw refused(prefix + profile.property(e.key()), e.value(), e.allowed());
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

    static String key(String raw) {
        return raw.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    }

    static Duration duration(String property, String value) {
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

    static boolean bool(String property, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw refused(property, value, "true or false");
        }
        return v.equals("true");
    }

    static long whole(String property, String value, long min, long max) {
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

    static double number(String property, String value) {
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

    static InvalidConfigException refused(String property, String value, String allowed) {
        String shown = value == null ? "null" : value.length() > 60 ? value.substring(0, 60) + "..." : value;
        return new InvalidConfigException(property, shown, allowed);
    }
}
