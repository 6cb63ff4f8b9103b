package dev.outlierlab.sim.fault;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which requests the random pattern fails, remembered across runs: a search runs the same scenario, with the same
 * seed, under many settings, and each run takes the same draws for a fault at a host (its stream is a function of
 * the seed, the fault's place and the host's name, and request {@code k}'s draw a function of {@code k}); only how
 * many requests reach the host differs. So the failing request numbers of a stream at a rate are found once, in
 * blocks of {@value #BLOCK} draws, and a later run looks its next failure up instead of drawing again: the same
 * numbers, so the same runs, byte for byte. A memo keeps about a given number of failures at most, forgetting all
 * when it would keep more. Safe to share between threads.
 */
public final class FailureMemo {
    static final int BITS = 12;
    static final int BLOCK = 1 << BITS;
    private static final int MASK = BLOCK - 1;

    private final ConcurrentHashMap<Key, Stream> streams = new ConcurrentHashMap<>();
    private final AtomicLong kept = new AtomicLong();
    private final long most;

    /** @param mostFailures the most failing request numbers kept over all streams (2 bytes each) */
    public FailureMemo(long mostFailures) {
        this.most = mostFailures;
    }

    /** The stream that fails request {@code k} iff its draw, from {@code streamSeed}, is below {@code ppm}. */
    Stream stream(long streamSeed, long ppm) {
        return streams.computeIfAbsent(new Key(streamSeed, ppm), key -> new Stream(key, this));
    }

    /** How many failing request numbers the memo keeps now. */
    public long kept() {
        return kept.get();
    }

    /**
     * Counts {@code n} more failures kept; past the most, the memo forgets every stream first (runs under way keep the
     * blocks they hold), so that a long-lived process sharing one memo keeps the streams of its latest searches.
     */
    private void reserve(int n) {
        if (kept.addAndGet(n) > most) {
            streams.clear();
            kept.set(n);
        }
    }

    private record Key(long seed, long ppm) {}

    /**
     * One stream's failures at one rate, block by block: block {@code b} holds, in order, the offsets {@code o} of
     * the failing request numbers {@code b * BLOCK + o}. Blocks are made once and never change.
     */
    static final class Stream {
        private final long seed;
        private final long ppm;
        private final FailureMemo memo;
        private volatile char[][] blocks = new char[0][];

        private Stream(Key key, FailureMemo memo) {
            this.seed = key.seed();
            this.ppm = key.ppm();
            this.memo = memo;
        }

        /** Block {@code b}, made now if it is not yet; null past the last block an array can index. */
        char[] block(long b) {
            char[][] known = blocks;
            if (b < known.length && known[(int) b] != null) {
                return known[(int) b];
            }
            return make(b);
        }

        private synchronized char[] make(long b) {
            if (b > Integer.MAX_VALUE - 1) {
                return null;
            }
            char[][] known = blocks;
            if (b < known.length && known[(int) b] != null) {
                return known[(int) b];
            }
            char[] found = new char[BLOCK];
            int n = 0;
            long state = SplitMix.stateOfDraw(seed, b << BITS);
            for (int o = 0; o < BLOCK; o++) {
                if (SplitMix.millionths(SplitMix.mix(state)) < ppm) {
                    found[n++] = (char) o;
                }
                state += SplitMix.GOLDEN;
            }
            memo.reserve(n);
            char[] block = Arrays.copyOf(found, n);
            char[][] grown = b < known.length ? known.clone() : Arrays.copyOf(known, (int) b + 1);
            grown[(int) b] = block;
            blocks = grown;
            return block;
        }

        /**
         * The first failing request number in {@code [k, limit)}, or {@code limit}; {@code -1 - k'} when the memo has
         * no block at {@code k'} (the numbers from {@code k} to it pass). {@code cursor} remembers where the last
         * answer was, so that numbers asked in order cost a step each rather than a search.
         */
        long nextFailure(long k, long limit, Cursor cursor) {
            long n = k;
            while (n < limit) {
                long b = n >>> BITS;
                int offset = (int) (n & MASK);
                char[] block;
                int at;
                if (b == cursor.block && (cursor.at == 0 || cursor.offsets[cursor.at - 1] < offset)) {
                    block = cursor.offsets;
                    at = cursor.at;
                    while (at < block.length && block[at] < offset) {
                        at++;
                    }
                } else {
                    block = block(b);
                    if (block == null) {
                        return -1 - n;
                    }
                    at = firstAtOrAfter(block, offset);
                    cursor.block = b;
                    cursor.offsets = block;
                }
                cursor.at = at;
                if (at < block.length) {
                    return Math.min((b << BITS) + block[at], limit);
                }
                n = (b + 1) << BITS;
            }
            return limit;
        }

        /** The index of the first offset at or after {@code offset} in {@code block}. */
        static int firstAtOrAfter(char[] block, int offset) {
            int lo = 0;
            int hi = block.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (block[mid] < offset) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** Where one reader of a stream last found a failure: its block, the block's offsets, and the index there. */
    static final class Cursor {
        private long block = -1;
        private char[] offsets;
        private int at;
    }
}
