package dev.outlierlab.flink;

import dev.outlierlab.accesslog.BadLines;

/**
 * What the job moves (a Flink POJO): up to {@value #MAX} consecutive outcomes of one detector from one input, in
 * the input's order (end time, then line), packed {@value #BYTES} bytes each with the chunk's own table of host
 * names; or, once per input at its end, what the read of that input counted and skipped ({@link #tally}, the bad
 * lines' side output). Sorting a chunk instead of each line makes the batch sort's work a thousandth.
 */
public class OutcomeChunk {
    static final int MAX = 4096;
    static final int BYTES = 21;

    /** The detector: cluster, a NUL, proxy instance. Null for a tally. */
    public String group;
    /**
     * The job's key: a 64-bit hash of {@link #group} (a fixed-length key sorts far faster than the text of a long
     * file name); detectors whose hashes collide share a key and are told apart by {@link #group}.
     */
    public long key;
    /** The input's number, in the order the logs were given (directories and globs expanded in name order). */
    public int input;
    /** The first outcome's end time: the chunk's timestamp, by which the batch sort orders a key's chunks. */
    public long firstEpochNanos;

    public int count;
    public String[] hosts;
    /** Per outcome: end time (8 bytes), host in {@link #hosts} (2), code (2), outcome's ordinal (1), line (8). */
    public byte[] data;
    /** A tally: the input's {@link BadLines.Counts}, serialised; null for outcomes. */
    public byte[] tally;
    /** With a tally: the input's part of the plan ({@link FleetPlan} of all its outcomes), serialised. */
    public byte[] plan;

    public OutcomeChunk() {}

    // read and written with shifts, not through a ByteBuffer wrapped per call: these run for every outcome, and a
    // TaskManager that compiles with C1 only (as docs/flink.md recommends) allocated every wrapper (a third of the
    // replaying TaskManager's CPU samples in a flight recording, 1 M lines)
    long endEpochNanos(int i) {
        return longAt(i * BYTES);
    }

    /** The outcome's host, as its index in {@link #hosts}. */
    int hostIndex(int i) {
        return shortAt(i * BYTES + 8);
    }

    int code(int i) {
        return shortAt(i * BYTES + 10);
    }

    int outcome(int i) {
        return data[i * BYTES + 12];
    }

    long line(int i) {
        return longAt(i * BYTES + 13);
    }

    /** Writes outcome {@code i} into {@code data}, as the accessors above read it. */
    static void pack(byte[] data, int i, long endEpochNanos, int host, int code, int outcome, long line) {
        int at = i * BYTES;
        putLong(data, at, endEpochNanos);
        data[at + 8] = (byte) (host >>> 8);
        data[at + 9] = (byte) host;
        data[at + 10] = (byte) (code >>> 8);
        data[at + 11] = (byte) code;
        data[at + 12] = (byte) outcome;
        putLong(data, at + 13, line);
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int k = 7; k >= 0; k--) {
            b[at + k] = (byte) v;
            v >>>= 8;
        }
    }

    /** Big-endian. */
    private long longAt(int at) {
        byte[] b = data;
        return (b[at] & 0xffL) << 56
                | (b[at + 1] & 0xffL) << 48
                | (b[at + 2] & 0xffL) << 40
                | (b[at + 3] & 0xffL) << 32
                | (b[at + 4] & 0xffL) << 24
                | (b[at + 5] & 0xffL) << 16
                | (b[at + 6] & 0xffL) << 8
                | (b[at + 7] & 0xffL);
    }

    /** Big-endian and signed, as {@code ByteBuffer.getShort} read it before. */
    private int shortAt(int at) {
        return (short) ((data[at] & 0xff) << 8 | (data[at + 1] & 0xff));
    }

    static String group(String cluster, String instance) {
        return cluster + '\u0000' + instance;
    }

    static String cluster(String group) {
        return group.substring(0, group.indexOf('\u0000'));
    }

    static String instance(String group) {
        return group.substring(group.indexOf('\u0000') + 1);
    }

    /** A 64-bit hash of the text (a polynomial hash, then MurmurHash3's finaliser). */
    static long hash(String s) {
        long h = 1_125_899_906_842_597L;
        for (int i = 0; i < s.length(); i++) {
            h = 31 * h + s.charAt(i);
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
