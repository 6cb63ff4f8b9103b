package dev.outlierlab.config.scenario;

import dev.outlierlab.engine.Durations;
import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as written in scenario files (docs/model.md): Envoy's JSON form ({@code "10s"}, {@code "0.25s"}),
 * plus {@code ms}, {@code m} and {@code h}; a bare number is seconds. Converted exactly to nanoseconds.
 */
public final class DurationText {
    /** What is allowed, for messages. */
    /** More digits before the point than this is longer than ten years, in any unit. */
    private static final int MAX_WHOLE_SECOND_DIGITS = 12;
    /** More digits after the point than this cannot be whole nanoseconds. */
    private static final int MAX_SCALE = 1_000;

    public static final String ALLOWED = "a duration such as 10s, 0.25s, 250ms, 5m or 1h (a bare number is seconds)";

    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h)");

    private DurationText() {}

    /**
     * Nanoseconds for a scalar read from YAML (Long, BigDecimal or String).
     *
     * @throws IllegalArgumentException if it is not a duration, is negative, finer than a nanosecond or too long
     */
    public static long parse(Object value) {
        BigDecimal seconds;
        if (value instanceof Long l) {
            seconds = BigDecimal.valueOf(l);
        } else if (value instanceof BigDecimal d) {
            seconds = d;
        } else if (value instanceof String s) {
            Matcher m = FORM.matcher(s.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException(ALLOWED);
            }
            BigDecimal number = new BigDecimal(m.group(1));
            if ((long) number.precision() - number.scale() > MAX_WHOLE_SECOND_DIGITS || number.scale() > MAX_SCALE) {
                throw new IllegalArgumentException(ALLOWED
                        + (number.scale() > MAX_SCALE ? ", to at most nanosecond precision" : ", at most 10 years"));
            }
            seconds = switch (m.group(2)) {
                case "ms" -> number.movePointLeft(3);
                case "s" -> number;
                case "m" -> number.multiply(BigDecimal.valueOf(60));
                default -> number.multiply(BigDecimal.valueOf(3600));
            };
        } else {
            throw new IllegalArgumentException(ALLOWED);
        }
        if ((long) seconds.precision() - seconds.scale() > MAX_WHOLE_SECOND_DIGITS || seconds.scale() > MAX_SCALE) {
            // beyond ten years, or finer than a nanosecond, whatever the exponent (1e2147483647 would overflow)
            throw new IllegalArgumentException(ALLOWED
                    + (seconds.scale() > MAX_SCALE ? ", to at most nanosecond precision" : ", at most 10 years"));
        }
        if (seconds.signum() < 0) {
            throw new IllegalArgumentException(ALLOWED + ", not negative");
        }
        BigDecimal nanos = seconds.movePointRight(9);
        if (nanos.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(ALLOWED + ", to at most nanosecond precision");
        }
        if (nanos.compareTo(BigDecimal.valueOf(Durations.MAX_NANOS)) > 0) {
            throw new IllegalArgumentException(ALLOWED + ", at most 10 years");
        }
        return nanos.longValueExact();
    }
}
