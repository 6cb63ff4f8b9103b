package dev.outlierlab.engine.caddy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import java.util.List;

/**
 * A Caddy {@code reverse_proxy}'s passive health checks and retries as the lab models them (Caddy 2.6,
 * {@code modules/caddyhttp/reverseproxy}): {@code fail_duration} (0 turns passive checks off), {@code max_fails}
 * (when {@code fail_duration} is set and it is not, 1: {@code Handler.Provision}), {@code unhealthy_status}
 * (codes such as {@code 503} or classes such as {@code 5xx}; none: no status counts), {@code unhealthy_latency}
 * (0: off), and {@code lb_try_duration} / {@code lb_try_interval} (250 ms when a try duration is set) /
 * {@code lb_retries}, and the HTTP transport's {@code response_header_timeout} (none by default:
 * {@code modules/caddyhttp/reverseproxy/httptransport.go}, whose {@code dial_timeout}, 3 s, bounds only the connect).
 *
 * @param upstreams           the upstreams' dial addresses in order
 * @param failDurationNanos   how long a failure is remembered
 * @param maxFails            failures remembered at once that make an upstream unhealthy
 * @param unhealthyStatus     the {@code unhealthy_status} entries: a status, or 1 to 5 for a class {@code Nxx}
 * @param unhealthyLatencyNanos a response whose headers took at least this long counts (0: off)
 * @param tryDurationNanos    {@code lb_try_duration} (0: no retries unless {@code lb_retries})
 * @param tryIntervalNanos    {@code lb_try_interval}
 * @param retries             {@code lb_retries} (0: none unless a try duration)
 * @param policy              {@code lb_policy}
 * @param responseHeaderTimeoutNanos the transport's {@code response_header_timeout}: how long a try waits for its
 *     response headers before it fails (0: none, a try that does not answer holds its request and is never counted)
 */
public record CaddyPassiveConfig(
        List<String> upstreams,
        long failDurationNanos,
        int maxFails,
        List<Integer> unhealthyStatus,
        long unhealthyLatencyNanos,
        long tryDurationNanos,
        long tryIntervalNanos,
        int retries,
        CaddySelection.Policy policy,
        long responseHeaderTimeoutNanos) {
    /** {@code lb_try_interval}'s value when {@code lb_try_duration} is set and it is not. */
    public static final long DEFAULT_TRY_INTERVAL_NANOS = 250 * Durations.MILLISECOND;

    public CaddyPassiveConfig {
        if (upstreams == null || upstreams.isEmpty()) {
            throw new InvalidConfigException("caddy.to", "[]", "at least one upstream");
        }
        upstreams = List.copyOf(upstreams);
        unhealthyStatus = List.copyOf(unhealthyStatus == null ? List.of() : unhealthyStatus);
        for (int s : unhealthyStatus) {
            if (!(s >= 1 && s <= 5) && !(s >= 100 && s <= 599)) {
                throw new InvalidConfigException(
                        "caddy.unhealthy_status",
                        Integer.toString(s),
                        "HTTP statuses such as 503 or classes such as 5xx");
            }
        }
        check("fail_duration", failDurationNanos);
        check("unhealthy_latency", unhealthyLatencyNanos);
        check("lb_try_duration", tryDurationNanos);
        check("lb_try_interval", tryIntervalNanos);
        check("response_header_timeout", responseHeaderTimeoutNanos);
        if (maxFails < 0) {
            throw new InvalidConfigException("caddy.max_fails", Integer.toString(maxFails), "0 or more");
        }
        if (failDurationNanos > 0 && maxFails == 0) {
            maxFails = 1; // Handler.Provision
        }
        if (tryDurationNanos > 0 && tryIntervalNanos == 0) {
            tryIntervalNanos = DEFAULT_TRY_INTERVAL_NANOS;
        }
        if (retries < 0) {
            throw new InvalidConfigException("caddy.lb_retries", Integer.toString(retries), "0 or more");
        }
        if (policy == null) {
            policy = CaddySelection.Policy.RANDOM;
        }
    }

    /** A handler whose transport sets no {@code response_header_timeout} (Caddy's default). */
    public CaddyPassiveConfig(
            List<String> upstreams,
            long failDurationNanos,
            int maxFails,
            List<Integer> unhealthyStatus,
            long unhealthyLatencyNanos,
            long tryDurationNanos,
            long tryIntervalNanos,
            int retries,
            CaddySelection.Policy policy) {
        this(
                upstreams,
                failDurationNanos,
                maxFails,
                unhealthyStatus,
                unhealthyLatencyNanos,
                tryDurationNanos,
                tryIntervalNanos,
                retries,
                policy,
                0);
    }

    private static void check(String key, long nanos) {
        if (nanos < 0 || nanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException("caddy." + key, Durations.format(nanos), "a duration of 0 or more");
        }
    }

    /** Passive checks with these upstreams, {@code fail_duration} and {@code max_fails}, nothing else set. */
    public static CaddyPassiveConfig of(List<String> upstreams, long failDurationNanos, int maxFails) {
        return new CaddyPassiveConfig(
                upstreams, failDurationNanos, maxFails, List.of(), 0, 0, 0, 0, CaddySelection.Policy.RANDOM);
    }

    public boolean passive() {
        return failDurationNanos > 0;
    }

    /**
     * How many failures one response counts: once per matching {@code unhealthy_status} entry, once more if its
     * headers took {@code unhealthy_latency} or longer ({@code Handler.reverseProxy} in
     * {@code modules/caddyhttp/reverseproxy/reverseproxy.go} calls {@code countFailure} for each, Caddy 2.6.2 and
     * later alike): a slow 503 under {@code unhealthy_status 5xx} counts twice.
     */
    public int strikes(int status, long latencyNanos) {
        int n = 0;
        for (int s : unhealthyStatus) {
            if (s == status || (s < 10 && status / 100 == s)) {
                n++;
            }
        }
        if (unhealthyLatencyNanos > 0 && latencyNanos >= unhealthyLatencyNanos) {
            n++;
        }
        return n;
    }

    public CaddyPassiveConfig withPassive(long failDuration, int fails, List<Integer> statuses, long latency) {
        return new CaddyPassiveConfig(
                upstreams,
                failDuration,
                fails,
                statuses,
                latency,
                tryDurationNanos,
                tryIntervalNanos,
                retries,
                policy,
                responseHeaderTimeoutNanos);
    }

    public CaddyPassiveConfig withRetries(long tryDuration, long tryInterval, int newRetries) {
        return new CaddyPassiveConfig(
                upstreams,
                failDurationNanos,
                maxFails,
                unhealthyStatus,
                unhealthyLatencyNanos,
                tryDuration,
                tryInterval,
                newRetries,
                policy,
                responseHeaderTimeoutNanos);
    }

    public CaddyPassiveConfig withPolicy(CaddySelection.Policy value) {
        return new CaddyPassiveConfig(
                upstreams,
                failDurationNanos,
                maxFails,
                unhealthyStatus,
                unhealthyLatencyNanos,
                tryDurationNanos,
                tryIntervalNanos,
                retries,
                value,
                responseHeaderTimeoutNanos);
    }

    /** The handler with the transport's {@code response_header_timeout} (0: none). */
    public CaddyPassiveConfig withResponseHeaderTimeout(long nanos) {
        return new CaddyPassiveConfig(
                upstreams,
                failDurationNanos,
                maxFails,
                unhealthyStatus,
                unhealthyLatencyNanos,
                tryDurationNanos,
                tryIntervalNanos,
                retries,
                policy,
                nanos);
    }

    /** The handler with these upstreams, everything else kept. */
    public CaddyPassiveConfig withUpstreams(List<String> dials) {
        return new CaddyPassiveConfig(
                dials,
                failDurationNanos,
                maxFails,
                unhealthyStatus,
                unhealthyLatencyNanos,
                tryDurationNanos,
                tryIntervalNanos,
                retries,
                policy,
                responseHeaderTimeoutNanos);
    }
}
