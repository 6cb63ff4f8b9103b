package dev.outlierlab.engine.haproxy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;

/**
 * One {@code server} line of a HAProxy backend, the settings of its health: whether it has an active
 * {@code check}, its {@code observe} mode, {@code error-limit} (default 10) and {@code on-error} (default
 * {@code fail-check}), the check timers {@code inter} (default 2 s), {@code fastinter} and {@code downinter}
 * (0: as {@code inter}), {@code rise} (default 2) and {@code fall} (default 3). Defaults from
 * {@code include/haproxy/defaults.h} ({@code DEF_CHKINTR}, {@code DEF_RISETIME}, {@code DEF_FALLTIME},
 * {@code DEF_HANA_ERRLIMIT}, {@code DEF_HANA_ONERR}).
 *
 * @param name          the server's name in the backend
 * @param address       its address as written, the lab's host name
 */
public record HaproxyServer(
        String name,
        String address,
        boolean check,
        Observe observe,
        int errorLimit,
        OnError onError,
        long interNanos,
        long fastinterNanos,
        long downinterNanos,
        int rise,
        int fall) {
    public static final int DEFAULT_ERROR_LIMIT = 10;
    public static final long DEFAULT_INTER_NANOS = 2 * Durations.SECOND;
    public static final int DEFAULT_RISE = 2;
    public static final int DEFAULT_FALL = 3;

    public HaproxyServer {
        if (address == null || address.isBlank()) {
            throw new InvalidConfigException("haproxy.server", "\"\"", "an address such as 10.0.0.1:8080");
        }
        if (observe == null) {
            observe = Observe.NONE;
        }
        if (onError == null) {
            onError = OnError.FAIL_CHECK;
        }
        if (errorLimit < 1) {
            throw new InvalidConfigException(
                    "haproxy.server.error-limit", Integer.toString(errorLimit), "a whole number of 1 or more");
        }
        positive("inter", interNanos, false);
        positive("fastinter", fastinterNanos, true);
        positive("downinter", downinterNanos, true);
        if (rise < 1 || rise > 1000) {
            throw new InvalidConfigException("haproxy.server.rise", Integer.toString(rise), "1 to 1000");
        }
        if (fall < 1 || fall > 1000) {
            throw new InvalidConfigException("haproxy.server.fall", Integer.toString(fall), "1 to 1000");
        }
    }

    private static void positive(String key, long nanos, boolean zeroAllowed) {
        if (nanos < 0 || (!zeroAllowed && nanos == 0) || nanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "haproxy.server." + key, Durations.format(nanos), "a duration greater than 0, such as 2s or 500ms");
        }
    }

    /** A server line with {@code check}, no {@code observe}, and HAProxy's defaults. */
    public static HaproxyServer checked(String name, String address) {
        return new HaproxyServer(
                name,
                address,
                true,
                Observe.NONE,
                DEFAULT_ERROR_LIMIT,
                OnError.FAIL_CHECK,
                DEFAULT_INTER_NANOS,
                0,
                0,
                DEFAULT_RISE,
                DEFAULT_FALL);
    }

    public HaproxyServer observing(Observe mode, int limit, OnError action) {
        return new HaproxyServer(
                name, address, check, mode, limit, action, interNanos, fastinterNanos, downinterNanos, rise, fall);
    }

    public HaproxyServer withCheck(boolean value) {
        return new HaproxyServer(
                name,
                address,
                value,
                observe,
                errorLimit,
                onError,
                interNanos,
                fastinterNanos,
                downinterNanos,
                rise,
                fall);
    }

    public HaproxyServer withTimers(long inter, long fastinter, long downinter, int newRise, int newFall) {
        return new HaproxyServer(
                name, address, check, observe, errorLimit, onError, inter, fastinter, downinter, newRise, newFall);
    }

    /** The highest health: {@code rise + fall - 1}. */
    public int maxHealth() {
        return rise + fall - 1;
    }
}
