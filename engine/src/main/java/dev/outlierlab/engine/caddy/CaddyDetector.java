package dev.outlierlab.engine.caddy;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.EjectingDetector;
import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.Outcome;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Caddy's passive health checks on the engine's {@link Detector} contract (Caddy 2.6,
 * {@code modules/caddyhttp/reverseproxy}): each failure adds one to the upstream's count at once and takes it
 * off exactly {@code fail_duration} later ({@code Handler.countFailure}, a goroutine per failure), so the count
 * is an exact sliding window; an upstream is unavailable while its count is at least {@code max_fails}
 * ({@code Upstream.Healthy}). A failure is a round trip that did not complete (refused, reset, a
 * {@code response_header_timeout}; {@code proxyLoopIteration}), and, for a completed one, one per
 * {@code unhealthy_status} entry its status matches and one more if its headers took {@code unhealthy_latency}
 * or longer ({@code reverseProxy}): a slow 503 counts twice. Without {@code fail_duration} nothing counts.
 * The forgetting is the detector's {@link #runDue} work. Driven from one thread; the pending forgets are a
 * queue in time order (one {@code fail_duration} for all).
 */
public final class CaddyDetector extends EjectingDetector {
    private final CaddyPassiveConfig config;
    private final Consumer<CaddyEvent> listener;
    private final EndpointEjections ejections;
    private final int[] fails;
    private long[] forgetAt = new long[64];
    private int[] forgetHost = new int[64];
    private int head;
    private int size;
    private long failuresCounted;

    public CaddyDetector(CaddyPassiveConfig config, Consumer<CaddyEvent> listener) {
        this.config = config;
        this.listener = listener;
        this.ejections = new EndpointEjections(config.upstreams());
        this.fails = new int[config.upstreams().size()];
    }

    public CaddyPassiveConfig config() {
        return config;
    }

    /** A response or local result with no latency information (as if fast). */
    @Override
    public void record(int endpoint, int outcome, long nowNanos) {
        record(endpoint, outcome, 0, nowNanos);
    }

    /** One round trip's outcome, with the time its response headers took. */
    public void record(int endpoint, int outcome, long latencyNanos, long nowNanos) {
        runDue(nowNanos);
        if (!config.passive() || Outcome.isConnectSignal(outcome)) {
            return;
        }
        int strikes = Outcome.isLocal(outcome) ? 1 : config.strikes(outcome, latencyNanos);
        for (int i = 0; i < strikes; i++) {
            countFailure(endpoint, nowNanos);
        }
    }

    private void countFailure(int endpoint, long nowNanos) {
        failuresCounted++;
        fails[endpoint]++;
        push(nowNanos + config.failDurationNanos(), endpoint);
        if (fails[endpoint] >= config.maxFails() && !ejections.isEjected(endpoint)) {
            ejections.eject(endpoint, nowNanos);
            listener.accept(new CaddyEvent(nowNanos, endpoint, ejections.name(endpoint), true, fails[endpoint]));
            ejections.tellEjected(endpoint, nowNanos);
        }
    }

    private void push(long at, int host) {
        if (size == forgetAt.length) {
            long[] t = new long[size * 2];
            int[] h = new int[size * 2];
            for (int i = 0; i < size; i++) {
                t[i] = forgetAt[(head + i) % size];
                h[i] = forgetHost[(head + i) % size];
            }
            forgetAt = t;
            forgetHost = h;
            head = 0;
        }
        int tail = (head + size) % forgetAt.length;
        forgetAt[tail] = at;
        forgetHost[tail] = host;
        size++;
    }

    @Override
    public long nextDueNanos() {
        return size == 0 ? NEVER : forgetAt[head];
    }

    /** Forgets every failure whose {@code fail_duration} has passed by {@code nowNanos}, oldest first. */
    @Override
    public void runDue(long nowNanos) {
        while (size > 0 && forgetAt[head] <= nowNanos) {
            long at = forgetAt[head];
            int host = forgetHost[head];
            head = (head + 1) % forgetAt.length;
            size--;
            fails[host]--;
            if (fails[host] < config.maxFails() && ejections.isEjected(host)) {
                ejections.returnToRotation(host);
                listener.accept(new CaddyEvent(at, host, ejections.name(host), false, fails[host]));
                ejections.tellReturned(host, at);
            }
        }
    }

    @Override
    protected EndpointEjections ejections() {
        return ejections;
    }

    @Override
    public int endpointCount() {
        return fails.length;
    }

    /** Failures remembered now for the upstream ({@code Host.Fails()}). */
    public int fails(int endpoint) {
        return fails[endpoint];
    }

    public long failuresCounted() {
        return failuresCounted;
    }

    /** The pending forgets, for tests. */
    long[] pending() {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = forgetAt[(head + i) % forgetAt.length];
        }
        return Arrays.copyOf(out, size);
    }
}
