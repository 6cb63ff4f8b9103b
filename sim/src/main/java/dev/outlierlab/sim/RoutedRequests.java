package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.overload.CapacityLimiter;
import dev.outlierlab.sim.routing.PriorityRouter;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalRecorder.RequestFate;
import dev.outlierlab.sim.traffic.ArrivalProcess;

/**
 * The per-request path with Envoy's routing ({@link PriorityRouter}) and the route's retry policy ({@link RetrySpec}):
 * each request is picked by its caller's router, and a failed attempt that the policy retries is sent again, to a host
 * the router picks anew, avoiding the hosts already tried when {@code previous_hosts} is on (up to
 * {@code host_selection_retry_max_attempts} extra picks, then the last pick is used, as
 * {@code ZoneAwareLoadBalancerBase::chooseHost} does). Every attempt is reported to its host's monitor (what the
 * detector sees) and counted in the host's tally; the request fails for its caller when its last attempt fails, or
 * when no host is found (a 503 that Envoy's router does not retry). All attempts happen at the request's send time;
 * what a retried attempt made its request wait ({@link RetrySpec#retryAfter}: a per-try timeout, a slow 5xx's latency)
 * is counted in the summary's slow requests ({@link RetryWaits}), and decides whether a further retry is made before
 * the route's timeout.
 */
final class RoutedRequests {
    private RoutedRequests() {}

    static RunResult run(Scenario scenario, RunOptions options, RequestSink sink) {
        LabCluster cluster = new LabCluster(scenario, options);
        LoadSpec load = scenario.load();
        FaultInjector faults = cluster.faults;
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        Caller[] callers = cluster.callers;
        RetrySpec retry = scenario.routing().retries();
        int maxRetries = retry == null ? 0 : retry.numRetries();
        int reselections = retry != null && retry.previousHosts() ? retry.hostSelectionMaxAttempts() : 0;
        int[] tried = new int[maxRetries + 1];
        RetryWaits waits = new RetryWaits();
        CapacityLimiter capacity =
                load.hasCapacity() ? new CapacityLimiter(scenario.cluster().hosts(), load.capacityRps()) : null;
        int clients = callers.length;
        int c = 0;
        long duration = scenario.durationNanos();
        long nextDue = cluster.nextDueNanos();
        long t = arrivals.next();
        RunWatcher watcher = options.watcher();
        long expected = scenario.requestCount();
        for (long i = 0; t >= 0; i++) {
            if ((i & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
                watcher.progress(i, Math.max(i, expected));
            }
            long following = arrivals.next();
            long next = following >= 0 ? following : duration;
            if (t >= nextDue) {
                cluster.runDue(t);
                nextDue = cluster.nextDueNanos();
            }
            Caller caller = callers[c];
            PriorityRouter router = caller.router;
            boolean duringFault = faults.anyActive(t);
            boolean panic = false;
            boolean noHost = false;
            RequestFate outcome = RequestFate.OK;
            for (int attempt = 0; attempt <= maxRetries; attempt++) {
                int host = pick(router, tried, attempt, reselections);
                if (attempt == 0) {
                    panic = router.lastPickInPanic();
                }
                if (host < 0) {
                    outcome = RequestFate.FAILED_NO_HOST;
                    noHost = true;
                    sink.onRequest(c, t, -1, 503, null);
                    break;
                }
                tried[attempt] = host;
                int fault = faults.onRequest(host, t);
                boolean retriable;
                if (fault != FaultInjector.PASS && faults.fault(fault).degraded()) {
                    outcome = RequestFate.OK;
                    caller.reportDegraded(host, t);
                    sink.onRequest(c, t, host, 200, null);
                    retriable = false;
                } else if (fault != FaultInjector.PASS) {
                    outcome = RequestFate.FAILED_FAULT;
                    FaultSpec spec = faults.fault(fault);
                    caller.report(host, spec.status(), spec.result(), t);
                    sink.onRequest(c, t, host, spec.status(), spec.result());
                    retriable = retried(retry, spec.status(), spec.result(), spec.latencyNanos(), waits);
                } else if (capacity != null && !capacity.admit(host, t)) {
                    outcome = RequestFate.FAILED_CAPACITY;
                    FaultResult overload = FaultResult.of(load.overloadResult());
                    caller.report(host, load.overloadStatus(), overload, t);
                    sink.onRequest(c, t, host, load.overloadStatus(), overload);
                    retriable = retried(retry, load.overloadStatus(), overload, 0, waits);
                } else {
                    outcome = RequestFate.OK;
                    caller.report(host, 200, null, t);
                    sink.onRequest(c, t, host, 200, null);
                    retriable = false;
                }
                cluster.recorder.hostRequest(host, outcome != RequestFate.OK, duringFault);
                if (!retriable) {
                    break;
                }
            }
            waits.answered(outcome != RequestFate.OK);
            cluster.recorder.request(c, t, next, outcome != RequestFate.OK, duringFault, panic, noHost);
            cluster.recorder.signals().request(t, outcome);
            t = following;
            if (++c == clients) {
                c = 0;
            }
        }
        cluster.recorder.slow(waits);
        return cluster.finish();
    }

    /** Whether the policy retries this failed attempt; if so, what it made the request wait is added to its wait. */
    private static boolean retried(RetrySpec retry, int status, FaultResult result, long latency, RetryWaits waits) {
        if (retry == null) {
            return false;
        }
        long wait = retry.retryAfter(status, result, latency, waits.pendingNanos());
        if (wait < 0) {
            return false;
        }
        waits.waited(wait);
        return true;
    }

    /**
     * {@code ZoneAwareLoadBalancerBase::chooseHost}: on a retry with {@code previous_hosts}, picks again while the
     * host was already tried, at most {@code reselections} more times, and keeps the last pick.
     */
    private static int pick(PriorityRouter router, int[] tried, int attempt, int reselections) {
        int host = router.pick();
        for (int k = 0; k < reselections && attempt > 0 && host >= 0 && triedBefore(tried, attempt, host); k++) {
            host = router.pick();
        }
        return host;
    }

    private static boolean triedBefore(int[] tried, int attempts, int host) {
        for (int a = 0; a < attempts; a++) {
            if (tried[a] == host) {
                return true;
            }
        }
        return false;
    }
}
