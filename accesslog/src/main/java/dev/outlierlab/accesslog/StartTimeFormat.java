package dev.outlierlab.accesslog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads {@code %START_TIME%} values. Envoy writes the start time with an strftime-like pattern (absl's
 * {@code FormatTime} plus Envoy's own specifiers): without one, {@code %Y-%m-%dT%H:%M:%E3SZ} in UTC, e.g.
 * {@code 2026-11-30T19:36:35.123Z}. Supported: {@code %Y %m %d %H %M %S %F %T}, {@code %E<n>S} and
 * {@code %E*S} (seconds with a fraction), {@code %f} and {@code %<n>f} (fraction digits), {@code %s} (seconds
 * since the epoch), {@code %z} ({@code +hhmm}) and {@code %%}; other characters must match as written. A
 * fraction is read with however many digits it has (1 to 9), so a log written with more precision than the
 * pattern says still reads exactly.
 */
public final class StartTimeFormat {
    /** Envoy's pattern when {@code %START_TIME%} has no argument. */
    public static final String ENVOY_DEFAULT = "%Y-%m-%dT%H:%M:%E3SZ";

    private enum Kind {
        LITERAL,
        YEAR,
        MONTH,
        DAY,
        HOUR,
        MINUTE,
        SECOND,
        SECOND_FRACTION,
        FRACTION,
        EPOCH,
        ZONE
    }

    private record Token(Kind kind, byte literal) {}

    private final Token[] tokens;
    private final String pattern;
    /** Width of the fixed text before the seconds' fraction, or -1 when the pattern has no such shape. */
    private final int prefixWidth;

    private final byte[] suffix;
    private final byte[] cachedPrefix;
    private long cachedBaseNanos = Long.MIN_VALUE;

    private StartTimeFormat(String pattern, Token[] tokens) {
        this.pattern = pattern;
        this.tokens = tokens;
        int width = 0;
        int fraction = -1;
        for (int i = 0; i < tokens.length && fraction < 0; i++) {
            switch (tokens[i].kind) {
                case LITERAL -> width += 1;
                case YEAR -> width += 4;
                case MONTH, DAY, HOUR, MINUTE, SECOND -> width += 2;
                case SECOND_FRACTION -> {
                    width += 2;
                    fraction = i;
                }
                default -> {
                    width = -1;
                    fraction = tokens.length;
                }
            }
        }
        boolean literalsAfter = fraction >= 0 && fraction < tokens.length;
        byte[] tail = new byte[literalsAfter ? tokens.length - fraction - 1 : 0];
        for (int i = fraction + 1; literalsAfter && i < tokens.length; i++) {
            literalsAfter = tokens[i].kind == Kind.LITERAL;
            tail[i - fraction - 1] = tokens[i].literal;
        }
        this.prefixWidth = literalsAfter && width > 0 ? width : -1;
        this.suffix = tail;
        this.cachedPrefix = new byte[Math.max(0, prefixWidth)];
    }

    /** Compiles an strftime pattern; throws {@link IllegalArgumentException} naming a specifier it cannot read. */
    public static StartTimeFormat compile(String pattern) {
        List<Token> out = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%') {
                out.add(new Token(Kind.LITERAL, (byte) c));
                continue;
            }
            if (i + 1 >= pattern.length()) {
                throw new IllegalArgumentException("START_TIME pattern \"" + pattern + "\" ends with a lone %");
            }
            char s = pattern.charAt(++i);
            switch (s) {
                case 'Y' -> out.add(new Token(Kind.YEAR, (byte) 0));
                case 'm' -> out.add(new Token(Kind.MONTH, (byte) 0));
                case 'd' -> out.add(new Token(Kind.DAY, (byte) 0));
                case 'H' -> out.add(new Token(Kind.HOUR, (byte) 0));
                case 'M' -> out.add(new Token(Kind.MINUTE, (byte) 0));
                case 'S' -> out.add(new Token(Kind.SECOND, (byte) 0));
                case 's' -> out.add(new Token(Kind.EPOCH, (byte) 0));
                case 'z' -> out.add(new Token(Kind.ZONE, (byte) 0));
                case 'f' -> out.add(new Token(Kind.FRACTION, (byte) 0));
                case '%' -> out.add(new Token(Kind.LITERAL, (byte) '%'));
                case 'F' -> {
                    out.addAll(compile("%Y-%m-%d").tokenList());
                }
                case 'T' -> {
                    out.addAll(compile("%H:%M:%S").tokenList());
                }
                case 'E' -> {
                    int j = i + 1;
                    while (j < pattern.length() && (Character.isDigit(pattern.charAt(j)) || pattern.charAt(j) == '*')) {
                        j++;
                    }
                    if (j >= pattern.length() || pattern.charAt(j) != 'S' || j == i + 1) {
                        throw new IllegalArgumentException("START_TIME pattern \"" + pattern
                                + "\": only %E<digits>S and %E*S are supported after %E");
                    }
                    out.add(new Token(Kind.SECOND_FRACTION, (byte) 0));
                    i = j;
                }
                default -> {
                    if (Character.isDigit(s)) {
                        int j = i;
                        while (j < pattern.length() && Character.isDigit(pattern.charAt(j))) {
                            j++;
                        }
                        if (j < pattern.length() && pattern.charAt(j) == 'f') {
                            out.add(new Token(Kind.FRACTION, (byte) 0));
                            i = j;
                            continue;
                        }
                    }
                    throw new IllegalArgumentException("START_TIME pattern \"" + pattern + "\": %" + s
                            + " is not supported; supported: %Y %m %d %H %M %S %F %T %E<n>S %E*S %f %<n>f %s %z %%");
                }
            }
        }
        return new StartTimeFormat(pattern, out.toArray(new Token[0]));
    }

    private List<Token> tokenList() {
        return List.of(tokens);
    }

    public String pattern() {
        return pattern;
    }

    /**
     * Epoch nanoseconds of {@code b[start, end)}, or {@link Long#MIN_VALUE} if it does not match the pattern. Lines
     * of one second share everything up to the fraction, so that part is remembered from the line before (an
     * instance is for one thread).
     */
    public long parse(byte[] b, int start, int end) {
        // the usual line: same second as the line before (cachedBaseNanos is only set when prefixWidth >= 0)
        if (cachedBaseNanos != Long.MIN_VALUE && end - start >= prefixWidth) {
            long fraction = fractionAndSuffix(b, start + prefixWidth, end);
            if (fraction >= 0
                    && (prefixWidth >= 8
                            ? Bytes.equalsLong(b, start, cachedPrefix, 0, prefixWidth)
                            : Arrays.equals(b, start, start + prefixWidth, cachedPrefix, 0, prefixWidth))) {
                return cachedBaseNanos + fraction;
            }
        }
        return parseAndRemember(b, start, end);
    }

    /** A new second (or a pattern with no fixed prefix): parsed in full, and the prefix remembered for the next line. */
    private long parseAndRemember(byte[] b, int start, int end) {
        if (prefixWidth < 0 || end - start < prefixWidth) {
            return parseFully(b, start, end);
        }
        long fraction = fractionAndSuffix(b, start + prefixWidth, end);
        if (fraction < 0) {
            return parseFully(b, start, end);
        }
        long full = parseFully(b, start, end);
        if (full != Long.MIN_VALUE) {
            System.arraycopy(b, start, cachedPrefix, 0, prefixWidth);
            cachedBaseNanos = full - fraction;
        }
        return full;
    }

    /** The nanoseconds of an optional {@code .digits} at p followed by exactly the suffix, or -1. */
    private long fractionAndSuffix(byte[] b, int p, int end) {
        long nanos = 0;
        if (p < end && b[p] == '.') {
            long f = fraction(b, p + 1, end);
            if (f < 0) {
                return -1;
            }
            nanos = f & 0xFFFFFFFFL;
            p += 1 + (int) (f >>> 32);
        }
        if (end - p != suffix.length) {
            return -1;
        }
        for (int i = 0; i < suffix.length; i++) {
            if (b[p + i] != suffix[i]) {
                return -1;
            }
        }
        return nanos;
    }

    private long parseFully(byte[] b, int start, int end) {
        int p = start;
        long year = 1970;
        long month = 1;
        long day = 1;
        long hour = 0;
        long minute = 0;
        long second = 0;
        long nanos = 0;
        long epoch = Long.MIN_VALUE;
        long offsetSeconds = 0;
        for (Token t : tokens) {
            switch (t.kind) {
                case LITERAL -> {
                    if (p >= end || b[p] != t.literal) {
                        return Long.MIN_VALUE;
                    }
                    p++;
                }
                case YEAR, MONTH, DAY, HOUR, MINUTE, SECOND -> {
                    int width = t.kind == Kind.YEAR ? 4 : 2;
                    if (p + width > end) {
                        return Long.MIN_VALUE;
                    }
                    long v = 0;
                    for (int k = 0; k < width; k++) {
                        int d = b[p + k] - '0';
                        if (d < 0 || d > 9) {
                            return Long.MIN_VALUE;
                        }
                        v = v * 10 + d;
                    }
                    p += width;
                    switch (t.kind) {
                        case YEAR -> year = v;
                        case MONTH -> month = v;
                        case DAY -> day = v;
                        case HOUR -> hour = v;
                        case MINUTE -> minute = v;
                        default -> second = v;
                    }
                }
                case SECOND_FRACTION -> {
                    if (p + 2 > end) {
                        return Long.MIN_VALUE;
                    }
                    int d1 = b[p] - '0';
                    int d2 = b[p + 1] - '0';
                    if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) {
                        return Long.MIN_VALUE;
                    }
                    second = d1 * 10L + d2;
                    p += 2;
                    if (p < end && b[p] == '.') {
                        p++;
                        long f = fraction(b, p, end);
                        if (f < 0) {
                            return Long.MIN_VALUE;
                        }
                        nanos = f & 0xFFFFFFFFL;
                        p += (int) (f >>> 32);
                    }
                }
                case FRACTION -> {
                    long f = fraction(b, p, end);
                    if (f < 0) {
                        return Long.MIN_VALUE;
                    }
                    nanos = f & 0xFFFFFFFFL;
                    p += (int) (f >>> 32);
                }
                case EPOCH -> {
                    long v = 0;
                    int q = p;
                    while (q < end && b[q] >= '0' && b[q] <= '9' && q - p < 12) {
                        v = v * 10 + (b[q] - '0');
                        q++;
                    }
                    if (q == p) {
                        return Long.MIN_VALUE;
                    }
                    epoch = v;
                    p = q;
                }
                case ZONE -> {
                    if (p + 5 > end || (b[p] != '+' && b[p] != '-')) {
                        return Long.MIN_VALUE;
                    }
                    long hh = (b[p + 1] - '0') * 10L + (b[p + 2] - '0');
                    long mm = (b[p + 3] - '0') * 10L + (b[p + 4] - '0');
                    if (hh < 0 || hh > 23 || mm < 0 || mm > 59) {
                        return Long.MIN_VALUE;
                    }
                    offsetSeconds = (hh * 3600 + mm * 60) * (b[p] == '-' ? -1 : 1);
                    p += 5;
                }
                default -> throw new IllegalStateException(t.kind.name());
            }
        }
        if (p != end) {
            return Long.MIN_VALUE;
        }
        long seconds;
        if (epoch != Long.MIN_VALUE) {
            seconds = epoch;
        } else {
            if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
                return Long.MIN_VALUE;
            }
            seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds;
        }
        return seconds * 1_000_000_000L + nanos;
    }

    /** What n fraction digits are multiplied by to give nanoseconds. */
    private static final long[] SCALE = {
        1_000_000_000L, 100_000_000L, 10_000_000L, 1_000_000L, 100_000L, 10_000L, 1_000L, 100L, 10L, 1L
    };

    /** Reads 1 to 9 fraction digits at p: (digits read) << 32 | nanoseconds, or -1 without a digit. */
    private static long fraction(byte[] b, int p, int end) {
        long v = 0;
        int n = 0;
        while (p + n < end && b[p + n] >= '0' && b[p + n] <= '9') {
            if (n == 9) {
                return -1;
            }
            v = v * 10 + (b[p + n] - '0');
            n++;
        }
        if (n == 0) {
            return -1;
        }
        return (long) n << 32 | v * SCALE[n];
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
    static long daysFromCivil(long y, long m, long d) {
        y -= m <= 2 ? 1 : 0;
        long era = (y >= 0 ? y : y - 399) / 400;
        long yoe = y - era * 400;
        long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}
