package dev.outlierlab.config.istio;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Istio resources write them, in Go's {@code time.ParseDuration} form: {@code 10s}, {@code 5m},
 * {@code 1h30m}, {@code 250ms}, {@code 1.5s} (units h, m, s, ms, us, ns). Converted exactly to nanoseconds.
 */
public final class GoDuration {
    private static final Pattern WHOLE = Pattern.compile("([0-9]*\\.?[0-9]+(h|ms|m|s|us|µs|ns))+");
    private static final Pattern PART = Pattern.compile("([0-9]*\\.?[0-9]+)(h|ms|m|s|us|µs|ns)");

    private GoDuration() {}

    /** Nanoseconds, or -1 if the text is not a duration. */
    public static long parse(String text) {
        if (!WHOLE.matcher(text).matches()) {
            return -1;
        }
        BigDecimal total = BigDecimal.ZERO;
        Matcher m = PART.matcher(text);
        while (m.find()) {
            BigDecimal n = new BigDecimal(m.group(1));
            long unit = switch (m.group(2)) {
                case "h" -> 3_600_000_000_000L;
                case "m" -> 60_000_000_000L;
                case "s" -> 1_000_000_000L;
                case "ms" -> 1_000_000L;
                case "us", "µs" -> 1_000L;
                default -> 1L;
            };
            total = total.add(n.multiply(BigDecimal.valueOf(unit)));
        }
        if (total.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0
                || total.stripTrailingZeros().scale() > 0) {
            return -1;
        }
        return total.longValueExact();
    }
}
