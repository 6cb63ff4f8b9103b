package dev.outlierlab.accesslog;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds a byte in an array eight bytes at a time (the "has a zero byte" bit trick on longs): the search for
 * newlines and field separators is most of the cost of reading a log.
 */
final class Bytes {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private Bytes() {
    }

    /** The first index in {@code [from, to)} holding {@code x}, or -1. */
    static int indexOf(byte[] b, int from, int to, byte x) {
        int shortEnd = Math.min(to, from + 8);
        for (int i = from; i < shortEnd; i++) {
            if (b[i] == x) {
                return i; // most field values are a few bytes: found before the word-at-a-time loop pays off
            }
        }
        long pattern = (x & 0xFFL) * ONES;
        int i = shortEnd;
        for (; i + 8 <= to; i += 8) {
            long word = (long) LONGS.get(b, i) ^ pattern;
            long found = (word - ONES) & ~word & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
