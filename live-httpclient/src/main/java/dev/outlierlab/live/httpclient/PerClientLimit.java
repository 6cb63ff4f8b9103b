package dev.outlierlab.live.httpclient;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link ReverseProxy}'s share per client address: how many of its requests are in the proxy now (checked, read,
 * waiting or being answered), at most {@code limit}; an address with none is forgotten.
 */
final class PerClientLimit {
    /** One request's place in its client's count, given back with {@link PerClientLimit#leave}. */
    record Share(InetAddress who, AtomicInteger count) {}

    private final int limit;
    private final Map<InetAddress, AtomicInteger> inProxy = new ConcurrentHashMap<>();

    PerClientLimit(int limit) {
        this.limit = limit;
    }

    int limit() {
        return limit;
    }

    /** Counts a request of {@code who} in; null (and nothing counted) when it has {@code limit} in already. */
    Share enter(InetAddress who) {
        Share share = new Share(who, inProxy.computeIfAbsent(who, k -> new AtomicInteger()));
        if (share.count().incrementAndGet() > limit) {
            leave(share);
            return null;
        }
        return share;
    }

    /** Counts the request out, once. */
    void leave(Share share) {
        if (share.count().decrementAndGet() <= 0) {
            inProxy.remove(share.who(), share.count());
        }
    }
}
