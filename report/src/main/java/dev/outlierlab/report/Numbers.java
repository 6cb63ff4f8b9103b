package dev.outlierlab.report;

import dev.outlierlab.engine.Durations;
import java.util.Locale;

/** Number formats shared by the text renderers, always in Locale.ROOT so output never depends on the machine. */
public final class Numbers {
    private Numbers() {
    }

    /** One decimal: {@code 67.0}. */
    public static String one(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    /** Two decimals: {@code 0.79}. */
    public static String two(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    /** Thousands separated: {@code 180,000}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A time or duration in seconds, as short as exact: {@code 40 s}, {@code 30.25 s}, {@code 0.000001 s}. */
    public static String seconds(long nanos) {
        String f = Durations.format(nanos);
        return f.substring(0, f.length() - 1) + " s";
    }
}
