package dev.outlierlab.accesslog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns names (hosts, clusters, instances) read as bytes: the same bytes give the same {@link String} and the
 * same number without allocating, so a line costs no string unless its name is new, and a number indexes arrays
 * where a map of strings would hash. The number of distinct names is bounded: past
 * {@code maxNames} a new name is refused (null) and the line counted as bad, so no log can grow the table
 * without limit.
 */
final class NameTable {
    private final int maxNames;
    private byte[][] keys = new byte[64][];
    private int[] ids = new int[64];
    private String[] names = new String[32];
    private int size;

    NameTable(int maxNames) {
        this.maxNames = maxNames;
    }

    /** The interned name of {@code b[s, e)}, or null when the table is full and the name is new. */
    String intern(byte[] b, int s, int e) {
        int id = id(b, s, e);
        return id < 0 ? null : names[id];
    }

    /**
     * The number of the name {@code b[s, e)} (0 for the first name seen, then 1, ...), or -1 when the table is
     * full and the name is new.
     */
    int id(byte[] b, int s, int e) {
        int h = hash(b, s, e);
        int mask = keys.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            byte[] k = keys[i];
            if (k == null) {
                if (size >= maxNames) {
                    return -1;
                }
                keys[i] = Arrays.copyOfRange(b, s, e);
                int id = size++;
                ids[i] = id;
                if (id == names.length) {
                    names = Arrays.copyOf(names, id * 2);
                }
                names[id] = new String(b, s, e - s, StandardCharsets.UTF_8);
                if (size * 2 > keys.length) {
                    grow();
                }
                return id;
            }
            if (k.length == e - s
                    && (k.length >= 8
                            ? Bytes.equalsLong(k, 0, b, s, k.length)
                            : Arrays.equals(k, 0, k.length, b, s, e))) {
                return ids[i];
            }
        }
    }

    /** The name numbered {@code id} by {@link #id}. */
    String name(int id) {
        return names[id];
    }

    int size() {
        return size;
    }

    /** A hash of the name, eight bytes at a time (the last word overlapping the one before when need be). */
    private static int hash(byte[] b, int s, int e) {
        int n = e - s;
        long h = n;
        if (n >= 8) {
            for (int i = s; i + 8 < e; i += 8) {
                h = (h + Bytes.word(b, i)) * 0x9E3779B97F4A7C15L;
            }
            h = (h + Bytes.word(b, e - 8)) * 0xC2B2AE3D27D4EB4FL;
        } else {
            for (int i = s; i < e; i++) {
                h = (h << 8) | (b[i] & 0xFF);
            }
            h *= 0x9E3779B97F4A7C15L;
        }
        return (int) (h ^ (h >>> 32) ^ (h >>> 17));
    }

    private void grow() {
        byte[][] oldKeys = keys;
        int[] oldIds = ids;
        keys = new byte[oldKeys.length * 2][];
        ids = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            byte[] k = oldKeys[j];
            if (k != null) {
                int i = hash(k, 0, k.length) & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                ids[i] = oldIds[j];
            }
        }
    }
}
