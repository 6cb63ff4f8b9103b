package dev.outlierlab.accesslog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds a byte (or a run of bytes, the literal text of a log format) in an array eight bytes at a time (the "has
 * a zero byte" bit trick on longs), and compares runs of bytes a word at a time: the search for newlines and field
 * separators is most of the cost of reading a log.
 */
final class Bytes {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long LOWS = 0x7F7F7F7F7F7F7F7FL;

    private Bytes() {}

    /**
     * The first index in {@code [from, to)} holding {@code x}, or -1. Words are read from {@code from} on, also past
     * {@code to} while they lie inside the array (a match there is ignored): a line's buffer has room after the line,
     * so one word holds most field values and no byte-by-byte loop (a mispredicted branch per byte) runs.
     */
    static int indexOf(byte[] b, int from, int to, byte x) {
        long pattern = (x & 0xFFL) * ONES;
        int i = from;
        int lastWord = b.length - 8;
        for (; i < to && i <= lastWord; i += 8) {
            long word = (long) LONGS.get(b, i) ^ pattern;
            // the lowest flagged byte is always a match (a false flag can only sit above a true one)
            long found = (word - ONES) & ~word & HIGHS;
            if (found != 0) {
                int at = i + (Long.numberOfTrailingZeros(found) >>> 3);
                return at < to ? at : -1;
            }
        }
        for (; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@link #indexOf(byte[], int, int, byte)} for a search that usually runs far (the newline ending a line of a
     * few hundred bytes): four words a step, one branch for the four, so most of a line costs no mispredicted exit.
     * A separate method from the field search also keeps the two searches' branch profiles apart in the JIT.
     */
    static int indexOfFar(byte[] b, int from, int to, byte x) {
        long pattern = (x & 0xFFL) * ONES;
        int i = from;
        int stop = Math.min(to, b.length - 31);
        for (; i < stop; i += 32) {
            long w0 = (long) LONGS.get(b, i) ^ pattern;
            long w1 = (long) LONGS.get(b, i + 8) ^ pattern;
            long w2 = (long) LONGS.get(b, i + 16) ^ pattern;
            long w3 = (long) LONGS.get(b, i + 24) ^ pattern;
            long f0 = (w0 - ONES) & ~w0 & HIGHS;
            long f1 = (w1 - ONES) & ~w1 & HIGHS;
            long f2 = (w2 - ONES) & ~w2 & HIGHS;
            long f3 = (w3 - ONES) & ~w3 & HIGHS;
            if ((f0 | f1 | f2 | f3) != 0) {
                // the lowest flag of the first word with one is a match, as in indexOf
                int at = f0 != 0
                        ? i + (Long.numberOfTrailingZeros(f0) >>> 3)
                        : f1 != 0
                                ? i + 8 + (Long.numberOfTrailingZeros(f1) >>> 3)
                                : f2 != 0
                                        ? i + 16 + (Long.numberOfTrailingZeros(f2) >>> 3)
                                        : i + 24 + (Long.numberOfTrailingZeros(f3) >>> 3);
                return at < to ? at : -1;
            }
        }
        return indexOf(b, i, to, x);
    }

    /** Whether {@code b[p, p + n)} equals {@code c[q, q + n)}, compared a word at a time ({@code n} of 8 or more). */
    static boolean equalsLong(byte[] b, int p, byte[] c, int q, int n) {
        int k = 0;
        for (; k + 8 <= n; k += 8) {
            if ((long) LONGS.get(b, p + k) != (long) LONGS.get(c, q + k)) {
                return false;
            }
        }
        return k == n || (long) LONGS.get(b, p + n - 8) == (long) LONGS.get(c, q + n - 8);
    }

    /**
     * The last index in {@code [from, to)} holding {@code x}, or -1, a word at a time from the end. The flags are
     * exact here (no borrow between bytes), since the highest one is the answer.
     */
    static int lastIndexOf(byte[] b, int from, int to, byte x) {
        long pattern = (x & 0xFFL) * ONES;
        int i = to - 8;
        for (; i >= from; i -= 8) {
            long word = (long) LONGS.get(b, i) ^ pattern;
            long found = ~(((word & LOWS) + LOWS) | word | LOWS);
            if (found != 0) {
                return i + 7 - (Long.numberOfLeadingZeros(found) >>> 3);
            }
        }
        for (i += 7; i >= from; i--) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** The eight bytes at {@code p} as a little-endian long. */
    static long word(byte[] b, int p) {
        return (long) LONGS.get(b, p);
    }

    /** Whether {@code lit} is at {@code p} and ends by {@code end}. */
    static boolean matches(byte[] b, int p, int end, byte[] lit) {
        if (p + lit.length > end) {
            return false;
        }
        for (int i = 0; i < lit.length; i++) {
            if (b[p + i] != lit[i]) {
                return false;
            }
        }
        return true;
    }

    /** The first index in {@code [p, end)} where {@code lit} starts and fits before {@code end}, or -1. */
    static int indexOf(byte[] b, int p, int end, byte[] lit) {
        byte first = lit[0];
        int last = end - lit.length;
        int i = p;
        while (i <= last) {
            i = Bytes.indexOf(b, i, last + 1, first);
            if (i < 0) {
                return -1;
            }
            if (matches(b, i, end, lit)) {
                return i;
            }
            i++;
        }
        return -1;
    }

    /** The last index in {@code [from, to)} where {@code lit} starts and fits before {@code to}, or -1. */
    static int lastIndexOf(byte[] b, int from, int to, byte[] lit) {
        if (lit.length == 0) {
            return to >= from ? to : -1;
        }
        byte first = lit[0];
        int i = to - lit.length + 1;
        while (true) {
            i = Bytes.lastIndexOf(b, from, i, first);
            if (i < 0) {
                return -1;
            }
            if (matches(b, i, to, lit)) {
                return i;
            }
        }
    }
}
