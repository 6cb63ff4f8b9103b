package dev.outlierlab.sim;

import java.util.Arrays;

/**
 * Which of the run's requests go to each host under every caller's current round robin, as arithmetic over the
 * requests' global numbers, for {@link PassBudget}. Caller {@code c} of {@code C} sends its request {@code j} as
 * the global request {@code jC + c}; with an eligible list of size {@code E} in which the host is at position
 * {@code p}, its requests {@code j = p - c (mod E)} go to the host ({@link CallerRotation}). The host's requests from
 * that caller are then the global numbers {@code o (mod CE)} with {@code o = ((p - c) mod E) C + c}, and those from
 * every caller whose list has the same size {@code E} are, in each period of {@code CE} numbers, the same sorted
 * offsets. Grouped by list size, counting a host's requests below a number costs a division and a binary search per
 * group, whatever the number of callers; with one group (every caller's list of one size: none ejects, or all eject
 * as many) a host's {@code k}-th request is a division and an index. A caller's offsets are taken out and put back
 * when its list changes, which is an event; between events the work follows failures, not callers.
 */
final class HostRequests {
    private final int callers;
    /** Per host, its groups: the callers' list size, the period (callers x size), the sorted offsets. */
    private final int[][] sizes;

    private final long[][] periods;
    private final long[][][] offsets;
    private final int[][] counts;
    private final int[] groups;
    /** Per caller: whether its rotation's offsets are in, and the list version they were taken at. */
    private final boolean[] joined;

    private final long[] joinedVersion;
    /** Per host: changed whenever its offsets change, so that a count made under them is known to be stale. */
    private final long[] stamps;
    /**
     * Per host, the walk's cursor: per group the index of its next offset and the number it stands for, all the
     * first at or after cursorAt[h], valid while the host's stamp is cursorStamp[h].
     */
    private final int[][] cursorIndex;

    private final long[][] cursorNext;
    private final long[] cursorAt;
    private final long[] cursorStamp;

    HostRequests(int callers, int hostCount) {
        this.callers = callers;
        this.sizes = new int[hostCount][1];
        this.periods = new long[hostCount][1];
        this.offsets = new long[hostCount][1][];
        this.counts = new int[hostCount][1];
        this.groups = new int[hostCount];
        this.joined = new boolean[callers];
        this.joinedVersion = new long[callers];
        this.stamps = new long[hostCount];
        this.cursorIndex = new int[hostCount][];
        this.cursorNext = new long[hostCount][];
        this.cursorAt = new long[hostCount];
        this.cursorStamp = new long[hostCount];
        Arrays.fill(cursorStamp, -1);
    }

    /** Takes every caller out. */
    void clear() {
        for (int h = 0; h < stamps.length; h++) {
            stamps[h]++;
        }
        Arrays.fill(groups, 0);
        Arrays.fill(joined, false);
    }

    /**
     * Before caller {@code c}'s rotation restarts with the balancer's list of version {@code version}: takes its
     * offsets out, unless the list is the one they were taken from. Returns whether {@link #join} must follow.
     */
    boolean leave(int c, CallerRotation rotation, long version) {
        if (joined[c]) {
            if (joinedVersion[c] == version) {
                return false;
            }
            int size = rotation.size();
            for (int p = 0; p < size; p++) {
                remove(rotation.hostAt(p), size, offset(c, p, size));
            }
            joined[c] = false;
        }
        return true;
    }

    /** After caller {@code c}'s rotation started: puts its offsets in. */
    void join(int c, CallerRotation rotation, long version) {
        int size = rotation.size();
        for (int p = 0; p < size; p++) {
            insert(rotation.hostAt(p), size, offset(c, p, size));
        }
        joined[c] = true;
        joinedVersion[c] = version;
    }

    private long offset(int c, int p, int size) {
        return (long) Math.floorMod(p - c, size) * callers + c;
    }

    private void insert(int h, int size, long offset) {
        stamps[h]++;
        int g = group(h, size);
        if (g < 0) {
            g = groups[h]++;
            if (g == sizes[h].length) {
                sizes[h] = Arrays.copyOf(sizes[h], g * 2);
                periods[h] = Arrays.copyOf(periods[h], g * 2);
                offsets[h] = Arrays.copyOf(offsets[h], g * 2);
                counts[h] = Arrays.copyOf(counts[h], g * 2);
            }
            sizes[h][g] = size;
            periods[h][g] = (long) callers * size;
            counts[h][g] = 0;
            if (offsets[h][g] == null) {
                offsets[h][g] = new long[4];
            }
        }
        long[] o = offsets[h][g];
        int m = counts[h][g];
        if (m == o.length) {
            o = Arrays.copyOf(o, Math.min(callers, m * 2));
            offsets[h][g] = o;
        }
        int at = lowerBound(o, m, offset);
        System.arraycopy(o, at, o, at + 1, m - at);
        o[at] = offset;
        counts[h][g] = m + 1;
    }

    private void remove(int h, int size, long offset) {
        stamps[h]++;
        int g = group(h, size);
        long[] o = offsets[h][g];
        int m = counts[h][g];
        int at = lowerBound(o, m, offset);
        System.arraycopy(o, at + 1, o, at, m - at - 1);
        if (--counts[h][g] == 0) {
            // the last group takes the emptied one's place, its array kept for reuse
            int last = --groups[h];
            sizes[h][g] = sizes[h][last];
            periods[h][g] = periods[h][last];
            counts[h][g] = counts[h][last];
            offsets[h][g] = offsets[h][last];
            offsets[h][last] = o;
        }
    }

    private int group(int h, int size) {
        int[] s = sizes[h];
        for (int g = 0; g < groups[h]; g++) {
            if (s[g] == size) {
                return g;
            }
        }
        return -1;
    }

    /**
     * A number that changes whenever the host's requests change (a caller's list changed, or every caller was taken
     * out): counts of the host's requests made under one stamp hold while it lasts.
     */
    long stamp(int h) {
        return stamps[h];
    }

    /** How many list sizes the host's callers have (each a group of offsets). */
    int groupCount(int h) {
        return groups[h];
    }

    /** The host's requests with global numbers below {@code x} ({@code x >= 0}) under the current rotations. */
    long below(int h, long x) {
        long n = 0;
        for (int g = 0; g < groups[h]; g++) {
            long period = periods[h][g];
            int m = counts[h][g];
            n += x / period * m + lowerBound(offsets[h][g], m, x % period);
        }
        return n;
    }

    /** The host's requests with global numbers in {@code [from, to)}. */
    long between(int h, long from, long to) {
        return to <= from ? 0 : below(h, to) - below(h, from);
    }

    /**
     * The global number of the host's request of rank {@code t} (from 0, counting from global number 0 under the
     * current rotations): the smallest {@code x} with {@code below(h, x + 1) > t}. The host must be in some list.
     */
    long rank(int h, long t) {
        if (groups[h] == 1) {
            int m = counts[h][0];
            return t / m * periods[h][0] + offsets[h][0][(int) (t % m)];
        }
        // below(x) is about x times the host's share of the requests, give or take how unevenly the offsets lie in
        // their periods: start there, step back until at most t requests are below, then walk up the groups' offsets
        double share = 0;
        for (int g = 0; g < groups[h]; g++) {
            share += counts[h][g] / (double) periods[h][g];
        }
        long y = Math.max(0, (long) (t / share));
        long n = below(h, y);
        for (int tries = 0; n > t || t - n > 2L * groups[h]; tries++) {
            long step = (long) ((t - n) / share);
            y = Math.max(0, n > t ? y + Math.min(-1, step - tries - 1) : y + step);
            n = below(h, y);
            if (tries > 8) {
                while (n > t) {
                    y /= 2;
                    n = below(h, y);
                }
                break;
            }
        }
        return walk(h, y, t - n);
    }

    /**
     * The {@code k}-th (from 0) of the host's requests at or after global number {@code y}: a step per request per
     * group, cheaper than {@link #rank} for small {@code k} when the host's callers have lists of several sizes. The
     * host's cursor (each group's next offset) is left at the request found, so that the walk from just past it, the
     * next failure's, starts there instead of searching every group again.
     */
    long walk(int h, long y, long k) {
        int count = groups[h];
        int[] index = cursorIndex[h];
        long[] next = cursorNext[h];
        boolean reuse = cursorStamp[h] == stamps[h] && (cursorAt[h] == y || cursorAt[h] + 1 == y);
        if (index == null || index.length < count) {
            index = cursorIndex[h] = new int[count * 2];
            next = cursorNext[h] = new long[count * 2];
            reuse = false;
        }
        if (!reuse) {
            for (int g = 0; g < count; g++) {
                long period = periods[h][g];
                long base = y - y % period;
                int at = lowerBound(offsets[h][g], counts[h][g], y % period);
                if (at == counts[h][g]) {
                    at = 0;
                    base += period;
                }
                index[g] = at;
                next[g] = base + offsets[h][g][at];
            }
        } else if (cursorAt[h] != y) {
            // the cursor stands at the request just before y: step the group it belongs to past it
            for (int g = 0; g < count; g++) {
                if (next[g] < y) {
                    step(h, g, index, next);
                }
            }
        }
        while (true) {
            int first = 0;
            for (int g = 1; g < count; g++) {
                if (next[g] < next[first]) {
                    first = g;
                }
            }
            if (k-- == 0) {
                cursorStamp[h] = stamps[h];
                cursorAt[h] = next[first];
                return next[first];
            }
            step(h, first, index, next);
        }
    }

    /** Moves group {@code g}'s cursor to its next offset. */
    private void step(int h, int g, int[] index, long[] next) {
        long[] o = offsets[h][g];
        long base = next[g] - o[index[g]];
        if (++index[g] == counts[h][g]) {
            index[g] = 0;
            base += periods[h][g];
        }
        next[g] = base + o[index[g]];
    }

    /** How many of the first {@code m} values of {@code sorted} are below {@code value}. */
    private static int lowerBound(long[] sorted, int m, long value) {
        int lo = 0;
        int hi = m;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
