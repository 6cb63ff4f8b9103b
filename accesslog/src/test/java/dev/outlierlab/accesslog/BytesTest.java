package dev.outlierlab.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time searches and comparisons agree with a byte-by-byte loop on random arrays (seeded), at every
 * alignment and near both ends of the array, where a word would reach past it; the name table gives each name
 * one number and one string.
 */
class BytesTest {
    @Test
    void searchesAgreeWithAByteLoopEverywhere() {
        Random r = new Random(20261130);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = new byte[r.nextInt(round % 4 == 0 ? 120 : 40)];
            for (int i = 0; i < b.length; i++) {
                // few distinct values, so the byte sought is often there, often more than once, and 0x80-0xFF too
                b[i] = (byte) "\n \"a\u00ff\u0080".charAt(r.nextInt(6));
            }
            byte x = (byte) "\n \"a\u00ff\u0080z".charAt(r.nextInt(7));
            int from = b.length == 0 ? 0 : r.nextInt(b.length + 1);
            int to = from + r.nextInt(b.length - from + 1);
            String where = Arrays.toString(b) + " [" + from + ", " + to + ") " + x;
            assertThat(Bytes.indexOf(b, from, to, x)).as(where).isEqualTo(naiveIndexOf(b, from, to, x));
            assertThat(Bytes.indexOfFar(b, from, to, x)).as(where).isEqualTo(naiveIndexOf(b, from, to, x));
            assertThat(Bytes.lastIndexOf(b, from, to, x)).as(where).isEqualTo(naiveLastIndexOf(b, from, to, x));
            byte[] lit = {x, (byte) "\n \"a".charAt(r.nextInt(4))};
            assertThat(Bytes.indexOf(b, from, to, lit)).as(where).isEqualTo(naiveIndexOf(b, from, to, lit, false));
            assertThat(Bytes.lastIndexOf(b, from, to, lit)).as(where).isEqualTo(naiveIndexOf(b, from, to, lit, true));
            if (to - from >= 8) {
                byte[] c = Arrays.copyOfRange(b, from, to);
                assertThat(Bytes.equalsLong(b, from, c, 0, c.length)).as(where).isTrue();
                c[r.nextInt(c.length)] ^= 1;
                assertThat(Bytes.equalsLong(b, from, c, 0, c.length)).as(where).isFalse();
            }
        }
    }

    @Test
    void eachNameGetsOneNumberAndOneStringAndTheTableIsBounded() {
        NameTable names = new NameTable(1_000);
        byte[] line = new byte[200];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 900; i++) {
                // long names that differ only in the middle, and short ones
                String name = i % 2 == 0 ? "outbound|80||reviews-v" + i + ".default.svc.cluster.local" : "h" + i;
                byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
                int at = 7 + i % 13;
                System.arraycopy(bytes, 0, line, at, bytes.length);
                int id = names.id(line, at, at + bytes.length);
                assertThat(id).isEqualTo(i);
                assertThat(names.name(id)).isEqualTo(name);
                assertThat(names.intern(line, at, at + bytes.length)).isSameAs(names.name(id));
            }
        }
        assertThat(names.size()).isEqualTo(900);
        byte[] more = "x".repeat(120).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 100; i++) {
            more[i] = 'y';
            assertThat(names.id(more, 0, more.length)).isEqualTo(900 + i);
        }
        more[100] = 'y';
        assertThat(names.id(more, 0, more.length)).isEqualTo(-1);
        assertThat(names.intern(more, 0, more.length)).isNull();
    }

    private static int naiveIndexOf(byte[] b, int from, int to, byte x) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** The first (or last) index in {@code [from, to)} where {@code lit} starts and fits before {@code to}. */
    private static int naiveIndexOf(byte[] b, int from, int to, byte[] lit, boolean last) {
        int found = -1;
        for (int i = from; i + lit.length <= to; i++) {
            if (Arrays.equals(b, i, i + lit.length, lit, 0, lit.length)) {
                found = i;
                if (!last) {
                    return i;
                }
            }
        }
        return found;
    }

    private static int naiveLastIndexOf(byte[] b, int from, int to, byte x) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
