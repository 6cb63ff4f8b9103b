package dev.outlierlab.engine;

import java.util.Locale;

/**
 * Nanosecond durations: the one limit on them and the one way to print them. Printing follows Envoy's JSON
 * form for {@code google.protobuf.Duration}: seconds with up to nine decimals and an {@code s}, e.g.
 * {@code 30s}, {@code 0.250s}.
 */
public final class Durations {
    /** One second in nanoseconds. */
    public static final long SECOND = 1_000_000_000L;
    /** One millisecond in nanoseconds. */
    public static final long MILLISECOND = 1_000_000L;
    /** The longest duration the lab accepts: 10 years, far inside a signed 64-bit nanosecond count. */
    public static final long MAX_NANOS = 10L * 366 * 24 * 3600 * SECOND;

    private Durations() {}

    /** Envoy's JSON form: {@code 30s}, {@code 1.500s}, {@code 0.000250s}. */
    public static String format(long nanos) {
        String sign = nanos < 0 ? "-" : "";
        long abs = Math.abs(nanos);
        long secs = abs / SECOND;
        long frac = abs % SECOND;
        if (frac == 0) {
            return sign + secs + "s";
        }
        String digits = String.format(Locale.ROOT, "%09d", frac);
        if (frac % MILLISECOND == 0) {
            digits = digits.substring(0, 3);
        } else if (frac % 1000 == 0) {
            digits = digits.substring(0, 6);
        }
        return sign + secs + "." + digits + "s";
    }

    /** Seconds as a double, for display only (never for arithmetic on time). */
    public static double toSeconds(long nanos) {
        return nanos / (double) SECOND;
    }

    /** {@code a * b}, saturating at Long.MAX_VALUE for non-negative arguments. */
    public static long saturatingMultiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi != 0 || lo < 0) {
            return Long.MAX_VALUE;
        }
        return lo;
    }

    /** {@code a + b}, saturating at Long.MAX_VALUE for non-negative arguments. */
    public static long saturatingAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }
}
