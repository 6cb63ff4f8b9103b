package dev.outlierlab.accesslog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns names (hosts, clusters, instances) read as bytes: the same bytes give the same {@link String} without
 * allocating, so a line costs no string unless its name is new. The number of distinct names is bounded: past
 * {@code maxNames} a new name is refused (null) and the line counted as bad, so no log can grow the table
 * without limit.
 */
final class NameTable {
    private final int maxNames;
    private byte[][] keys = new byte[64][];
    private String[] values = new String[64];
    private int size;

    NameTable(int maxNames) {
        this.maxNames = maxNames;
    }

    /** The interned name of {@code b[s, e)}, or null when the table is full and the name is new. */
    String intern(byte[] b, int s, int e) {
        int h = hash(b, s, e);
        int mask = keys.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            byte[] k = keys[i];
            if (k == null) {
                if (size >= maxNames) {
                    return null;
                }
                keys[i] = Arrays.copyOfRange(b, s, e);
                values[i] = new String(b, s, e - s, StandardCharsets.UTF_8);
                size++;
                String v = values[i];
                if (size * 2 > keys.length) {
                    grow();
                }
                return v;
            }
            if (k.length == e - s && Arrays.equals(k, 0, k.length, b, s, e)) {
                return values[i];
            }
        }
    }

    int size() {
        return size;
    }

    private static int hash(byte[] b, int s, int e) {
        int h = 0x811c9dc5;
        for (int i = s; i < e; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    private void grow() {
        byte[][] oldKeys = keys;
        String[] oldValues = values;
        keys = new byte[oldKeys.length * 2][];
        values = new String[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            byte[] k = oldKeys[j];
            if (k != null) {
                int i = hash(k, 0, k.length) & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                values[i] = oldValues[j];
            }
        }
    }
}
