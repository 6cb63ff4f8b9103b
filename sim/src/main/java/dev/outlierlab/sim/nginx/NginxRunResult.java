package dev.outlierlab.sim.nginx;

import dev.outlierlab.engine.nginx.NginxEvent;
import java.util.List;

/**
 * What an nginx run produced: requests and what their clients got, attempts and failures per server, every
 * ejection and return (each worker's), and how long each server was out in at least one worker.
 *
 * @param requests          client requests
 * @param clientErrors      requests whose client got a 5xx (a server's, 502 or 504 for an error or timeout, or 502
 *                          "no live upstreams")
 * @param noLiveUpstreams   requests answered 502 without any attempt: every server out in that worker
 * @param attempts          attempts per server, in upstream order
 * @param failedAttempts    attempts per server that failed (its status or error, counted or not)
 * @param countedFailures   attempts per server that nginx counted against max_fails
 * @param events            every ejection and return, in time order
 * @param workers           the detectors: worker processes, or 1 with {@code zone}
 * @param hosts             the servers' names in upstream order
 * @param requestsDuringFault requests sent while a fault window was active (0 for a replay)
 * @param errorsDuringFault   of those, the requests answered with an error
 * @param delayedRequests     requests answered without an error only after one or more failed attempts that made
 *                            them wait (a timeout; a 5xx with the fault's latency), each retried on the next server
 * @param delayNanos          the time those requests waited for their failed attempts, in all
 */
public record NginxRunResult(
        long requests,
        long clientErrors,
        long noLiveUpstreams,
        long[] attempts,
        long[] failedAttempts,
        long[] countedFailures,
        List<NginxEvent> events,
        int workers,
        List<String> hosts,
        long requestsDuringFault,
        long errorsDuringFault,
        long delayedRequests,
        long delayNanos) {

    public NginxRunResult {
        events = List.copyOf(events);
        hosts = List.copyOf(hosts);
    }

    /** A run with no fault windows counted (a replay). */
    public NginxRunResult(
            long requests,
            long clientErrors,
            long noLiveUpstreams,
            long[] attempts,
            long[] failedAttempts,
            long[] countedFailures,
            List<NginxEvent> events,
            int workers,
            List<String> hosts) {
        this(
                requests,
                clientErrors,
                noLiveUpstreams,
                attempts,
                failedAttempts,
                countedFailures,
                events,
                workers,
                hosts,
                0,
                0,
                0,
                0);
    }

    /** Ejections of one server, over all workers. */
    public long ejections(int host) {
        return events.stream()
                .filter(e -> e.endpoint() == host && e.action() == NginxEvent.Action.EJECT)
                .count();
    }

    /** Ejections of every server. */
    public long ejections() {
        return events.stream()
                .filter(e -> e.action() == NginxEvent.Action.EJECT)
                .count();
    }
}
