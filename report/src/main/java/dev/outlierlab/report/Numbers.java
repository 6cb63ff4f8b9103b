package dev.outlierlab.report;

import java.util.Locale;

/** Number formats shared by the text renderers, always in Locale.ROOT so output never depends on the machine. */
public final class Numbers {
    private Numbers() {}

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

    /** Nanoseconds as seconds to the millisecond, as a text report shows a time: {@code 55.787 s}, {@code 32.030 s}, {@code 30 s}. */
    public static String seconds(long nanos) {
        long millis = Math.floorDiv(nanos + 500_000, 1_000_000);
        String sign = millis < 0 ? "-" : "";
        long abs = Math.abs(millis);
        return sign
                + (abs % 1000 == 0
                        ? Long.toString(abs / 1000)
                        : String.format(Locale.ROOT, "%d.%03d", abs / 1000, abs % 1000))
                + " s";
    }
}
