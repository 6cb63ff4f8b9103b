package dev.outlierlab.sim.overload;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Each host's capacity over a sliding second: a host with capacity {@code c} serves a request at {@code t}
 * iff it served fewer than {@code c} requests in {@code (t - 1 s, t]}; a request beyond that fails for capacity
 * (overload). Only requests a host serves count toward its window. Memory per host grows with the requests it
 * served in the last second, never beyond its capacity.
 */
public final class CapacityLimiter {
    private static final long SECOND = 1_000_000_000L;

    private final long[] capacity;
    private final long[][] served;
    private final int[] head;
    private final int[] size;

    /** @param capacityRps capacity by host name; hosts not named are unlimited */
    public CapacityLimiter(List<String> hosts, Map<String, Long> capacityRps) {
        capacity = new long[hosts.size()];
        served = new long[hosts.size()][];
        head = new int[hosts.size()];
        size = new int[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            capacity[h] = capacityRps.getOrDefault(hosts.get(h), 0L);
            served[h] = new long[capacity[h] == 0 ? 0 : (int) Math.min(capacity[h], 16)];
        }
    }

    /** Whether {@code host} serves a request at {@code nanos}; if so it is counted in its window. */
    public boolean admit(int host, long nanos) {
        long cap = capacity[host];
        if (cap == 0) {
            return true;
        }
        long[] ring = served[host];
        while (size[host] > 0 && ring[head[host]] <= nanos - SECOND) {
            head[host] = (head[host] + 1) % ring.length;
            size[host]--;
        }
        if (size[host] >= cap) {
            return false;
        }
        if (size[host] == ring.length) {
            ring = grow(host);
        }
        ring[(head[host] + size[host]) % ring.length] = nanos;
        size[host]++;
        return true;
    }

    /** The host's capacity in requests per second, 0 when unlimited. */
    public long capacity(int host) {
        return capacity[host];
    }

    private long[] grow(int host) {
        long[] old = served[host];
        long[] bigger = new long[(int) Math.min(capacity[host], Math.max(16, 2L * old.length))];
        for (int k = 0; k < size[host]; k++) {
            bigger[k] = old[(head[host] + k) % old.length];
        }
        Arrays.fill(bigger, size[host], bigger.length, 0);
        head[host] = 0;
        served[host] = bigger;
        return bigger;
    }
}
