package dev.outlierlab.config.nginx;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nginx's time values as {@code ngx_parse_time} (src/core/ngx_parse.c) reads them: numbers with the units y M w d h m
 * s (and ms where the directive takes milliseconds), each at most once and from the largest to the smallest; a number
 * without a unit, only last, is seconds ({@code 10}, {@code 1m30s}, {@code 500ms}, and {@code 10s5} is 15 s, as
 * {@code ngx_parse_time}'s {@code st_last} adds it after any unit). {@code 1h1h} and {@code 30s1m} are errors there
 * too, so a long run of units cannot add up past a limit unnoticed.
 */
final class NginxTime {
    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|y|M|w|d|h|m|s)?");
    private static final List<String> UNITS = List.of("y", "M", "w", "d", "h", "m", "s", "ms");
    private static final long SECOND = 1_000_000_000L;
    private static final long DAY = 86_400L * SECOND;
    private static final long[] UNIT_NANOS = {
        365 * DAY, 30 * DAY, 7 * DAY, DAY, 3_600 * SECOND, 60 * SECOND, SECOND, 1_000_000L
    };

    private NginxTime() {}

    /**
     * {@code v} in nanoseconds, or -1 when it is not such a time, uses {@code ms} where {@code milliseconds} is false,
     * or is over {@code maxNanos}.
     */
    static long nanos(String v, boolean milliseconds, long maxNanos) {
        Matcher m = PART.matcher(v);
        long total = 0;
        int at = 0;
        int last = -1;
        while (at < v.length()) {
            if (!m.find(at) || m.start() != at) {
                return -1;
            }
            boolean bare = m.group(2) == null;
            int unit = bare ? UNITS.size() : UNITS.indexOf(m.group(2));
            if (unit <= last
                    || (bare && m.end() != v.length())
                    || (!milliseconds && m.group(2) != null && m.group(2).equals("ms"))) {
                return -1;
            }
            long n = Long.parseLong(m.group(1));
            long scale = bare ? SECOND : UNIT_NANOS[unit];
            if (n > (maxNanos - total) / scale) {
                return -1; // past the limit: refused, never wrapped around
            }
            total += n * scale;
            last = unit;
            at = m.end();
        }
        return v.isEmpty() ? -1 : total;
    }
}
