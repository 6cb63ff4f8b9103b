package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Typed reads of {@link Located} values with the scenario format's rules, each failing with one message that
 * names the place, the key, the value and what is allowed.
 */
public final class Values {

    public static InputException error(Located at, String key, Object value, String allowed) {
        return errorShown(at, key, Wording.describe(value), allowed);
    }

    /** As {@link #error}, with the value already in display form (as {@link InvalidConfigException} carries it). */
    public static InputException errorShown(Located at, String key, String shownValue, String allowed) {
        String what = shownValue + " is not allowed; expected " + allowed;
        if (at == null) {
            return new InputException(key + ": " + what);
        }
        if (at.origin().equals("--set " + key)) {
            return new InputException(at.origin() + ": " + what);
        }
        return new InputException(at.origin() + ": " + key + ": " + what);
    }

    @SuppressWarnings("unchecked")
    public Map<String, Located> map(Located node, String key, Set<String> allowed) {
        if (!(node.value() instanceof Map)) {
            throw error(
                    node, key.isEmpty() ? "(top level)" : key, node.value(), "a mapping with keys " + sorted(allowed));
        }
        Map<String, Located> m = (Map<String, Located>) node.value();
        for (Map.Entry<String, Located> e : m.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                String full = key.isEmpty() ? e.getKey() : key + "." + e.getKey();
                String near = Wording.nearest(e.getKey(), allowed);
                String hint = near == null ? "" : " (did you mean '" + near + "'?)";
                if (key.isEmpty()
                        && allowed.contains("outlier_detection")
                        && OutlierSetting.byEnvoyName(e.getKey()) != null) {
                    // --set consecutive_5xx=3, --vary interval=5s,10s: an outlier-detection field without its block
                    hint = " (did you mean 'outlier_detection." + e.getKey() + "'?)";
                } else if (key.equals("outlier_detection")) {
                    hint = IstioNames.hint(
                            e.getKey(), near, e.getValue().origin().startsWith("--set"));
                }
                throw new InputException(e.getValue().origin() + ": unknown key '" + full + "'" + hint + "; allowed "
                        + (key.isEmpty() ? "at the top level" : "under " + key) + ": " + sorted(allowed));
            }
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    public List<Located> list(Located node, String key) {
        if (!(node.value() instanceof List)) {
            throw error(node, key, node.value(), "a list");
        }
        return (List<Located>) node.value();
    }

    public String text(Located node, String key, String fallback) {
        if (node == null) {
            return fallback;
        }
        Object v = node.value();
        if (v instanceof String s) {
            return s;
        }
        if (v instanceof Long || v instanceof BigDecimal) {
            return Wording.describe(v);
        }
        throw error(node, key, v, "text");
    }

    public long integer(Located node, String key, long fallback, long min, long max) {
        return node == null ? fallback : integer(node, node.value(), key, min, max);
    }

    /**
     * A whole percentage-valued key ({@code max_ejection_percent: 35} or {@code 35%}): as {@link #integer}, with one
     * trailing {@code %} allowed ({@link #percentNumber}).
     */
    public long percent(Located node, String key, long fallback, long min, long max) {
        return node == null ? fallback : integer(node, percentNumber(node.value()), key, min, max);
    }

    /** {@code v} (the node's value, or the number it writes with a {@code %}) as a whole number; refused as written. */
    private static long integer(Located node, Object v, String key, long min, long max) {
        String allowed = max == Long.MAX_VALUE ? "a whole number" : "a whole number from " + min + " to " + max;
        if (v instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0 && fitsLong(d)) {
            v = d.longValueExact();
        }
        if (!(v instanceof Long l) || l < min || l > max) {
            throw error(node, key, node.value(), allowed);
        }
        return l;
    }

    /** Whether a whole decimal is within a long's range (a value beyond it is refused, never wrapped). */
    private static boolean fitsLong(BigDecimal d) {
        return d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
    }

    public double decimal(Located node, String key, double fallback, double min, double max, String allowed) {
        return node == null ? fallback : decimal(node, node.value(), key, min, max, allowed);
    }

    /**
     * A percentage-valued key with decimals ({@code panic_threshold: 12.5} or {@code 12.5%}): as {@link #decimal},
     * with one trailing {@code %} allowed ({@link #percentNumber}).
     */
    public double percentDecimal(Located node, String key, double fallback, double min, double max, String allowed) {
        return node == null ? fallback : decimal(node, percentNumber(node.value()), key, min, max, allowed);
    }

    private static double decimal(Located node, Object v, String key, double min, double max, String allowed) {
        double d;
        if (v instanceof Long l) {
            d = l;
        } else if (v instanceof BigDecimal b) {
            d = b.doubleValue();
        } else {
            throw error(node, key, node.value(), allowed);
        }
        if (!(d >= min && d <= max)) {
            throw error(node, key, node.value(), allowed);
        }
        return d;
    }

    /** The longest number read before a {@code %}: a percentage needs far fewer digits. */
    private static final int MAX_PERCENT_DIGITS = 32;

    /**
     * The value of a percentage-valued key: a number as written ({@code 35}, {@code 12.5}), or text that is a number
     * followed by one {@code %} ({@code "35%"}, {@code "12.5 %"}), read as that number. Anything else ({@code "35%%"}, {@code "abc"}) is returned as it is, for the
     * caller to refuse with the value as written.
     */
    static Object percentNumber(Object v) {
        if (!(v instanceof String s) || !s.endsWith("%") || s.length() > MAX_PERCENT_DIGITS) {
            return v;
        }
        String number = s.substring(0, s.length() - 1).strip();
        if (number.isEmpty() || !number.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.' || c == '-')) {
            return v;
        }
        try {
            return new BigDecimal(number);
        } catch (NumberFormatException e) {
            return v;
        }
    }

    /** A percentage with up to four decimals ({@code 33}, {@code 12.3456%}), as parts per million. */
    long ratePpm(Located node, String key, long fallback) {
        if (node == null) {
            return fallback;
        }
        Object v = percentNumber(node.value());
        String allowed = "a percentage from 0 to 100 with at most 4 decimals";
        BigDecimal d = v instanceof Long l ? BigDecimal.valueOf(l) : v instanceof BigDecimal b ? b : null;
        if (d == null
                || d.signum() < 0
                || d.compareTo(BigDecimal.valueOf(100)) > 0
                || d.stripTrailingZeros().scale() > 4) {
            throw error(node, key, node.value(), allowed);
        }
        return d.movePointRight(4).longValueExact();
    }

    public boolean bool(Located node, String key, boolean fallback) {
        if (node == null) {
            return fallback;
        }
        if (node.value() instanceof Boolean b) {
            return b;
        }
        throw error(node, key, node.value(), "true or false");
    }

    public long duration(Located node, String key, long fallback, boolean allowZero) {
        if (node == null) {
            return fallback;
        }
        long nanos;
        try {
            nanos = DurationText.parse(node.value());
        } catch (IllegalArgumentException e) {
            throw error(node, key, node.value(), e.getMessage());
        }
        if (nanos == 0 && !allowZero) {
            throw error(node, key, node.value(), DurationText.ALLOWED + ", greater than 0");
        }
        return nanos;
    }

    /**
     * An outlier_detection duration, truncated to whole milliseconds as Envoy reads it
     * ({@code DurationUtil::durationToMilliseconds}): {@code 30.0009s} is 30 s.
     */
    long outlierDuration(Located node, String key, OutlierSetting setting) {
        long nanos = duration(node, key, 0, true);
        long truncated = nanos - nanos % Durations.MILLISECOND;
        if (truncated == 0 && nanos > 0 && setting != OutlierSetting.MAX_EJECTION_TIME_JITTER) {
            throw error(
                    node,
                    key,
                    node.value(),
                    setting.allowedRange() + " of at least 1ms (Envoy accepts it but reads "
                            + setting.envoyName()
                            + " in whole milliseconds, so this would be a 0 ms timer, which the lab does "
                            + "not simulate)");
        }
        return truncated;
    }

    public List<String> names(Located node, String key) {
        List<String> names = new ArrayList<>();
        for (Located item : list(node, key)) {
            Object v = item.value();
            if (!(v instanceof String) && !(v instanceof Long)) {
                throw error(item, key, v, "host names");
            }
            names.add(String.valueOf(v));
        }
        return names;
    }

    FaultResult result(Located node, String key) {
        if (node == null || node.value() == null) {
            return null;
        }
        FaultResult r = node.value() instanceof String s ? FaultResult.byName(s) : null;
        if (r == null) {
            throw error(
                    node,
                    key,
                    node.value(),
                    "one of timeout, connect_failed, reset, ext_failed (or leave it out to fail with status)");
        }
        return r;
    }

    /**
     * How a fault fails active health checks: false or absent (it does not), true or status (an unexpected HTTP
     * status), timeout, refused.
     */
    HealthCheckFailure healthCheckFailure(Located node, String key) {
        if (node == null || node.value() == null || Boolean.FALSE.equals(node.value())) {
            return null;
        }
        if (Boolean.TRUE.equals(node.value())) {
            return HealthCheckFailure.STATUS;
        }
        HealthCheckFailure k = node.value() instanceof String s ? HealthCheckFailure.byScenarioName(s) : null;
        if (k == null) {
            throw error(
                    node,
                    key,
                    node.value(),
                    "false, or how the probes fail: status (true means status), " + "timeout, refused");
        }
        return k;
    }

    /**
     * A fault's failure pattern: random (the default: real failures come at random, docs/fault-patterns.md), even
     * (which the default scenario names) or bursts.
     */
    FaultPattern pattern(Located node, String key) {
        if (node == null || node.value() == null) {
            return FaultPattern.RANDOM;
        }
        FaultPattern p = node.value() instanceof String s ? FaultPattern.byScenarioName(s) : null;
        if (p == null) {
            throw error(node, key, node.value(), "one of random (the default), even, bursts");
        }
        return p;
    }

    /** A positive decimal with at most 3 decimals, in thousandths. */
    long milli(Located node, String key, long fallback, String allowed) {
        if (node == null) {
            return fallback;
        }
        Object v = node.value();
        BigDecimal d = v instanceof Long l ? BigDecimal.valueOf(l) : v instanceof BigDecimal b ? b : null;
        if (d == null
                || d.signum() <= 0
                || d.stripTrailingZeros().scale() > 3
                || d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1000)) > 0) {
            throw error(node, key, v, allowed);
        }
        return d.movePointRight(3).longValueExact();
    }

    /**
     * Runs a constructor that validates; an {@link InvalidConfigException} becomes a message at {@code at},
     * with a relative key such as {@code faults[].end} completed by {@code key}.
     */
    public <T> T guard(Located at, String key, Supplier<T> build) {
        try {
            return build.get();
        } catch (InvalidConfigException e) {
            String full = e.key().startsWith("faults[]") ? key + e.key().substring("faults[]".length()) : e.key();
            throw errorShown(at, full, e.value(), e.allowed());
        }
    }

    /** The deepest node on a key path such as {@code faults[0].hosts} (the root if nothing matches). */
    static Located find(Located root, String key) {
        Located current = root;
        for (String part : key.split("[.\\[\\]]+")) {
            if (part.isEmpty()) {
                continue;
            }
            Object v = current.value();
            Located next = null;
            if (v instanceof Map<?, ?> m) {
                next = (Located) m.get(part);
            } else if (v instanceof List<?> l && part.chars().allMatch(Character::isDigit) && part.length() < 10) {
                int i = Integer.parseInt(part);
                next = i < l.size() ? (Located) l.get(i) : null;
            }
            if (next == null) {
                return current;
            }
            current = next;
        }
        return current;
    }

    /** Plain maps, lists and scalars (as {@link ScenarioWriter} makes them) as a tree of located values. */
    public static Located fromPlain(Object value, String origin) {
        if (value instanceof Map<?, ?> m) {
            LinkedHashMap<String, Located> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), fromPlain(v, origin)));
            return new Located(out, origin);
        }
        if (value instanceof List<?> l) {
            ArrayList<Located> out = new ArrayList<>();
            l.forEach(v -> out.add(fromPlain(v, origin)));
            return new Located(out, origin);
        }
        if (value instanceof Integer i) {
            return new Located((long) i, origin);
        }
        if (value instanceof Double d) {
            return new Located(BigDecimal.valueOf(d), origin);
        }
        return new Located(value, origin);
    }

    private static String sorted(Set<String> keys) {
        return String.join(", ", new TreeSet<>(keys));
    }
}
