package dev.outlierlab.sim.scenario;

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
 * {@code refused-stream}, which is an HTTP/2 REFUSED_STREAM the lab does not inject); {@code timeout} the route's
 * per-try timeout, which Envoy's router answers with a 504 ({@code Filter::onPerTryTimeout}), retried as that status.
 * gRPC's {@code unavailable}, {@code cancelled} and the others read a {@code grpc-status} the lab's faults do not
 * carry. Every attempt happens at the request's send time (zero latency): Envoy's back-off between attempts and a
 * retry budget's limit on concurrent retries (every attempt has finished before the next request) do not arise.
 *
 * @param retryOn              the {@code retry_on} conditions, in Envoy's names
 * @param numRetries           the most retries per request (Envoy's default with a retry policy: 1)
 * @param retriableStatusCodes the statuses {@code retriable-status-codes} retries
 * @param previousHosts        whether a retry avoids hosts this request already tried
 * @param hostSelectionMaxAttempts how many extra picks a retry makes to find a host not tried
 *                             ({@code host_selection_retry_max_attempts})
 * @param origin               where the policy came from, for reports (e.g. "istiod's default")
 */
public record RetrySpec(
        Set<String> retryOn,
        int numRetries,
        List<Integer> retriableStatusCodes,
        boolean previousHosts,
        int hostSelectionMaxAttempts,
        String origin) {

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

    /**
     * istiod's default for every HTTP route without a VirtualService {@code retries} ({@code DefaultPolicy} in
     * {@code pilot/pkg/networking/core/route/retry/retry.go}): two retries on
     * {@code connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes} with 503 retriable (unless
     * istiod runs with {@code EXCLUDE_503_FROM_DEFAULT_RETRIES}), other hosts preferred ({@code previous_hosts}), 5
     * host-selection attempts.
     */
    public static final RetrySpec ISTIO_DEFAULT = new RetrySpec(
            new LinkedHashSet<>(
                    List.of("connect-failure", "refused-stream", "unavailable", "cancelled", "retriable-status-codes")),
            2,
            List.of(503),
            true,
            5,
            "istiod's default");

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
            case TIMEOUT -> retriesStatus(504);
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
                + " (" + origin + ")";
    }
}
