package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A route's retry policy as Envoy's router applies it ({@code envoy.config.route.v3.RetryPolicy}, decided in
 * {@code RetryStateImpl::wouldRetryFromHeaders} and {@code wouldRetryFromReset}, {@code source/common/router/
 * retry_state_impl.cc}): which failures are retried ({@code retry_on}), how many times ({@code num_retries}), which
 * statuses {@code retriable-status-codes} covers, and whether a retry avoids the hosts already tried (the
 * {@code envoy.retry_host_predicates.previous_hosts} predicate, with {@code host_selection_retry_max_attempts}
 * re-picks, {@code ZoneAwareLoadBalancerBase::chooseHost}).
 *
 * <p>What the lab's faults are to the retry policy: a status is a response ({@code 5xx} retries any 5xx,
 * {@code gateway-error} 502, 503 and 504, {@code retriable-status-codes} the listed ones, {@code retriable-4xx}
 * 409); {@code connect_failed} is a connection failure ({@code connect-failure}, {@code reset}, {@code 5xx},
 * {@code gateway-error}); {@code reset} a remote reset ({@code reset}, {@code 5xx}, {@code gateway-error}; not
 * {@code refused-stream}, which is an HTTP/2 REFUSED_STREAM the lab does not inject); {@code timeout} a host that does
 * not answer in time. gRPC's {@code unavailable}, {@code cancelled} and the others read a {@code grpc-status} the
 * lab's faults do not carry.
 *
 * <p>Timeouts ({@code source/common/router/router.cc}): with a per-try timeout shorter than the route's timeout
 * ({@code FilterUtility::finalTimeout} drops a {@code per_try_timeout} that is not), a try that does not answer is
 * reset when it expires ({@code Filter::onPerTryTimeoutCommon}) and retried as a local reset
 * ({@code maybeRetryReset}, {@code RetryStateImpl::wouldRetryFromReset}: {@code reset}, {@code 5xx} or
 * {@code gateway-error}). Without one, the route's timeout ({@code timeout}, 15 s unless set; 0 disables it) ends the
 * request: {@code Filter::onResponseTimeout} resets every try and answers 504, with no retry. Once the tries of a
 * request have waited the route's timeout in all, no further try is made either.
 *
 * <p>Every attempt happens at the request's send time (zero latency): Envoy's back-off between attempts and a retry
 * budget's limit on concurrent retries (every attempt has finished before the next request) do not arise. What a
 * retried try made its request wait is counted, not simulated ({@link #retryAfter}).
 *
 * @param retryOn              the {@code retry_on} conditions, in Envoy's names
 * @param numRetries           the most retries per request (Envoy's default with a retry policy: 1)
 * @param retriableStatusCodes the statuses {@code retriable-status-codes} retries
 * @param previousHosts        whether a retry avoids hosts this request already tried
 * @param hostSelectionMaxAttempts how many extra picks a retry makes to find a host not tried
 *                             ({@code host_selection_retry_max_attempts})
 * @param origin               where the policy came from, for reports (e.g. "istiod's default")
 * @param perTryTimeoutNanos   {@code per_try_timeout}, or 0 for none (Envoy's default and istiod's)
 * @param routeTimeoutNanos    the route's {@code timeout}, 0 for none: Envoy's default is 15 s, istiod writes 0
 *                             unless a VirtualService route sets {@code timeout}
 */
public record RetrySpec(
        Set<String> retryOn,
        int numRetries,
        List<Integer> retriableStatusCodes,
        boolean previousHosts,
        int hostSelectionMaxAttempts,
        String origin,
        long perTryTimeoutNanos,
        long routeTimeoutNanos) {

    /** The {@code retry_on} conditions Envoy knows ({@code RetryPolicy} names, HTTP and gRPC). */
    public static final Set<String> KNOWN = Set.of(
            "5xx",
            "gateway-error",
            "reset",
            "reset-before-request",
            "connect-failure",
            "envoy-ratelimited",
            "retriable-4xx",
            "refused-stream",
            "retriable-status-codes",
            "retriable-headers",
            "http3-post-connect-failure",
            "cancelled",
            "deadline-exceeded",
            "internal",
            "resource-exhausted",
            "unavailable");
    /** The most retries accepted. */
    public static final int MAX_RETRIES = 100;
    /** A route's {@code timeout} when none is set ({@code DEFAULT_ROUTE_TIMEOUT_MS}, {@code config_impl.cc}): 15 s. */
    public static final long ENVOY_ROUTE_TIMEOUT_NANOS = 15 * Durations.SECOND;

    /**
     * istiod's default for every HTTP route without a VirtualService {@code retries} ({@code DefaultPolicy} in
     * {@code pilot/pkg/networking/core/route/retry/retry.go}): two retries on
     * {@code connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes} with 503 retriable (unless
     * istiod runs with {@code EXCLUDE_503_FROM_DEFAULT_RETRIES}), other hosts preferred ({@code previous_hosts}), 5
     * host-selection attempts; no per-try timeout, and a route timeout of 0, none ({@code BuildDefaultHTTPInboundRoute}
     * and {@code setTimeout} in {@code pilot/pkg/networking/core/route/route.go}): a host that does not answer holds
     * its request until the caller gives up, and the request is not retried.
     */
    public static final RetrySpec ISTIO_DEFAULT = new RetrySpec(
            new LinkedHashSet<>(
                    List.of("connect-failure", "refused-stream", "unavailable", "cancelled", "retriable-status-codes")),
            2,
            List.of(503),
            true,
            5,
            "istiod's default",
            0,
            0);

    public RetrySpec {
        retryOn = Set.copyOf(new LinkedHashSet<>(retryOn));
        retriableStatusCodes = List.copyOf(retriableStatusCodes);
        for (String on : retryOn) {
            if (!KNOWN.contains(on)) {
                throw new InvalidConfigException(
                        "retries.retry_on",
                        on,
                        "Envoy's retry_on conditions: " + String.join(", ", new TreeSet<>(KNOWN)));
            }
        }
        if (numRetries < 0 || numRetries > MAX_RETRIES) {
            throw new InvalidConfigException(
                    "retries.num_retries",
                    Integer.toString(numRetries),
                    "a whole number of retries from 0 to " + MAX_RETRIES);
        }
        for (int code : retriableStatusCodes) {
            if (code < 100 || code > 599) {
                throw new InvalidConfigException(
                        "retries.retriable_status_codes", Integer.toString(code), "HTTP statuses from 100 to 599");
            }
        }
        if (hostSelectionMaxAttempts < 0 || hostSelectionMaxAttempts > MAX_RETRIES) {
            throw new InvalidConfigException(
                    "retries.host_selection_retry_max_attempts",
                    Integer.toString(hostSelectionMaxAttempts),
                    "from 0 to " + MAX_RETRIES);
        }
        if (perTryTimeoutNanos < 0 || perTryTimeoutNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "retries.per_try_timeout", Durations.format(perTryTimeoutNanos), "a duration of 0 (none) or more");
        }
        if (routeTimeoutNanos < 0 || routeTimeoutNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "retries.route_timeout", Durations.format(routeTimeoutNanos), "a duration of 0 (none) or more");
        }
    }

    /** This policy on a route whose {@code timeout} is {@code nanos} (0: none). */
    public RetrySpec withRouteTimeout(long nanos) {
        return new RetrySpec(
                retryOn,
                numRetries,
                retriableStatusCodes,
                previousHosts,
                hostSelectionMaxAttempts,
                origin,
                perTryTimeoutNanos,
                nanos);
    }

    /**
     * The per-try timeout in effect: {@code per_try_timeout} unless it is 0 or not shorter than the route's timeout
     * ({@code FilterUtility::finalTimeout} then drops it), else 0.
     */
    public long effectivePerTryNanos() {
        return perTryTimeoutNanos > 0 && (routeTimeoutNanos == 0 || perTryTimeoutNanos < routeTimeoutNanos)
                ? perTryTimeoutNanos
                : 0;
    }

    /**
     * Whether this failed try is retried, and after what wait: -1 for no retry, else how long the request waited for
     * the try (0 for a refused or reset connection, whose error comes back at once). A try that does not answer
     * ({@code timeout}), or a 5xx slower than the per-try timeout, is reset when the per-try timeout expires and retried
     * as a reset ({@link #retriesTimeout}), its wait the per-try timeout; a 5xx answered in time waits its
     * {@code latencyNanos}. {@code waitedNanos} is what the request's earlier tries waited: once the tries have waited
     * the route's timeout in all, {@code Filter::onResponseTimeout} answers 504 and no retry is made.
     */
    public long retryAfter(int status, FaultResult result, long latencyNanos, long waitedNanos) {
        long perTry = effectivePerTryNanos();
        long wait;
        boolean retried;
        if (result == FaultResult.TIMEOUT || result == null && perTry > 0 && latencyNanos >= perTry) {
            wait = perTry;
            retried = retriesTimeout();
        } else {
            wait = result == null ? latencyNanos : 0;
            retried = result == null ? retriesStatus(status) : retriesResult(result);
        }
        if (!retried || routeTimeoutNanos > 0 && waitedNanos + wait >= routeTimeoutNanos) {
            return -1;
        }
        return wait;
    }

    /**
     * Whether a try that does not answer is retried: only with a per-try timeout in effect (without one the route's
     * timeout ends the request), as {@code wouldRetryFromReset} retries a local reset: {@code reset}, {@code 5xx},
     * {@code gateway-error}.
     */
    public boolean retriesTimeout() {
        return effectivePerTryNanos() > 0
                && (retryOn.contains("reset") || retryOn.contains("5xx") || retryOn.contains("gateway-error"));
    }

    /** Whether Envoy retries a response with {@code status} ({@code wouldRetryFromHeaders}). */
    public boolean retriesStatus(int status) {
        if (retryOn.contains("5xx") && status >= 500 && status <= 599) {
            return true;
        }
        if (retryOn.contains("gateway-error") && status >= 502 && status <= 504) {
            return true;
        }
        if (retryOn.contains("retriable-4xx") && status == 409) {
            return true;
        }
        return retryOn.contains("retriable-status-codes") && retriableStatusCodes.contains(status);
    }

    /** Whether Envoy retries a request the fault failed with {@code result} ({@code wouldRetryFromReset}). */
    public boolean retriesResult(FaultResult result) {
        return switch (result) {
            case CONNECT_FAILED ->
                retryOn.contains("connect-failure")
                        || retryOn.contains("reset")
                        || retryOn.contains("5xx")
                        || retryOn.contains("gateway-error");
            case RESET -> retryOn.contains("reset") || retryOn.contains("5xx") || retryOn.contains("gateway-error");
            case TIMEOUT -> retriesTimeout();
            case EXT_FAILED -> false;
        };
    }

    /** The conditions in Envoy's order of the scenario file, comma-separated, e.g. for a report. */
    public String retryOnText() {
        List<String> sorted = new ArrayList<>(retryOn);
        Collections.sort(sorted);
        return String.join(",", sorted);
    }

    /** One line for reports: e.g. {@code 2 retries on connect-failure,... (503), previous hosts avoided}. */
    public String describe() {
        return numRetries + (numRetries == 1 ? " retry" : " retries") + " on " + retryOnText()
                + (retryOn.contains("retriable-status-codes") && !retriableStatusCodes.isEmpty()
                        ? " " + retriableStatusCodes
                        : "")
                + (previousHosts
                        ? ", other hosts preferred (previous_hosts, " + hostSelectionMaxAttempts + " re-picks)"
                        : "")
                + (perTryTimeoutNanos > 0 ? ", per-try timeout " + Durations.format(perTryTimeoutNanos) : "")
                + (routeTimeoutNanos > 0 && routeTimeoutNanos != ENVOY_ROUTE_TIMEOUT_NANOS
                        ? ", route timeout " + Durations.format(routeTimeoutNanos)
                        : "")
                + " (" + origin + ")";
    }
}
