package dev.outlierlab.httpserver;

/**
 * What one connection of a {@link BoundedHttpServer} may cost: connections per client address and in all (past
 * either a new connection is closed as soon as it is accepted, before any byte is read), the time to the first
 * byte of a request and from it to the end of the request (headers and body), the time to take an answer, how
 * long and how many idle keep-alive connections are kept, and the bytes of a request's line and headers. The
 * defaults mirror the JDK server's settings that the lab used before ({@code sun.net.httpserver.maxReqTime},
 * {@code maxRspTime}, {@code idleInterval}, {@code maxIdleConnections}, {@code jdk.httpserver.maxConnections}).
 */
public record ServerLimits(
        int clientConnections,
        int maxConnections,
        long requestNanos,
        long responseNanos,
        long idleNanos,
        int maxIdle,
        int maxHeaderBytes) {
    /** Open connections of one client address by default. */
    public static final int DEFAULT_CLIENT_CONNECTIONS = 64;
    /** Open connections in all by default. */
    public static final int DEFAULT_MAX_CONNECTIONS = 512;
    /** Seconds to the first byte, and then to the end of the request, by default. */
    public static final int DEFAULT_REQUEST_SECONDS = 3;
    /** Seconds to take an answer by default. */
    public static final int DEFAULT_RESPONSE_SECONDS = 30;
    /** Bytes of a request line and its headers by default (64 KiB). */
    public static final int DEFAULT_HEADER_BYTES = 64 * 1024;

    public ServerLimits {
        if (clientConnections < 1
                || maxConnections < 1
                || requestNanos <= 0
                || responseNanos <= 0
                || idleNanos <= 0
                || maxIdle < 0
                || maxHeaderBytes < 256) {
            throw new IllegalArgumentException("server limits out of range: " + clientConnections + " per client, "
                    + maxConnections + " in all, " + maxIdle + " idle, " + maxHeaderBytes + " header bytes");
        }
    }

    /** The defaults: 64 per client, 512 in all, 3 s, 30 s, 200 idle for 30 s each, 64 KiB of headers. */
    public static ServerLimits defaults() {
        return new ServerLimits(
                DEFAULT_CLIENT_CONNECTIONS,
                DEFAULT_MAX_CONNECTIONS,
                seconds(DEFAULT_REQUEST_SECONDS),
                seconds(DEFAULT_RESPONSE_SECONDS),
                seconds(30),
                200,
                DEFAULT_HEADER_BYTES);
    }

    /** These limits with {@code n} connections per client address. */
    public ServerLimits withClientConnections(int n) {
        return new ServerLimits(n, maxConnections, requestNanos, responseNanos, idleNanos, maxIdle, maxHeaderBytes);
    }

    private static long seconds(int s) {
        return s * 1_000_000_000L;
    }
}
