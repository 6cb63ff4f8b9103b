package dev.outlierlab.sim.nginx;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxDetector;
import dev.outlierlab.engine.nginx.NginxEvent;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.sim.RetryWaits;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.proxies.OutcomeTraces;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceRecord;
import dev.outlierlab.sim.traffic.ArrivalProcess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Runs a scenario's traffic through an nginx upstream: request {@code i} (at the scenario's arrival times) is
 * handled by worker {@code i mod workers} (one detector for all with {@code zone}; in a real nginx the kernel
 * picks the worker that accepts the connection), which selects servers, attempts and retries exactly as
 * {@link NginxDetector#request} does; each attempt's outcome comes from the scenario's faults (their pattern,
 * status or local result, from the scenario's seed), else 200. The scenario's hosts are the upstream's servers, in
 * order, {@code backup} servers where they are written; Envoy's outlier detection settings do not apply. Zero latency. Deterministic, byte for byte.
 *
 * <p>Attempts take no time in the run, but what a retry made the client wait is counted
 * ({@link NginxRunResult#delayedRequests()}, {@link NginxRunResult#delayNanos()}, tallied by {@link RetryWaits}): a
 * request answered without an error after one or more failed attempts waited, for each of them, what nginx waits
 * before it calls
 * {@code ngx_http_upstream_next} (src/http/ngx_http_upstream.c): a timed-out attempt {@code proxy_read_timeout}
 * (the connection was made; {@code ngx_http_upstream_process_header} times out on the read), a refused or reset
 * connection nothing (the error comes back at once), a 5xx answer the fault's own latency. nginx's
 * {@code proxy_next_upstream_timeout} (0 by default: no limit) is not modelled.
 */
public final class NginxSimulation {
    /** nginx's default {@code proxy_read_timeout} (and {@code proxy_connect_timeout}): 60 s. */
    public static final long DEFAULT_READ_TIMEOUT_NANOS = 60 * Durations.SECOND;

    private NginxSimulation() {}

    /**
     * {@link #run(Scenario, NginxUpstreamConfig, long)} with the upstream's own {@code proxy_read_timeout}
     * ({@link NginxUpstreamConfig#readTimeoutNanos()}, 60 s unless the configuration says otherwise).
     */
    public static NginxRunResult run(Scenario scenario, NginxUpstreamConfig config) {
        return run(scenario, config, config.readTimeoutNanos());
    }

    /**
     * Runs the scenario; {@code readTimeoutNanos} is what a timed-out attempt makes its request wait
     * ({@code proxy_read_timeout}).
     */
    public static NginxRunResult run(Scenario scenario, NginxUpstreamConfig config, long readTimeoutNanos) {
        List<String> hosts = config.hosts();
        if (!hosts.equals(scenario.cluster().hosts())) {
            throw new IllegalArgumentException("the scenario's hosts must be the upstream's servers");
        }
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        int n = hosts.size();
        List<NginxEvent> events = new ArrayList<>();
        NginxDetector[] workers = new NginxDetector[config.detectors()];
        for (int w = 0; w < workers.length; w++) {
            workers[w] = new NginxDetector(config, w, events::add);
        }
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        int[] outcomeOfFault = new int[scenario.faults().size()];
        long[] waitOfFault = new long[outcomeOfFault.length];
        for (int f = 0; f < outcomeOfFault.length; f++) {
            outcomeOfFault[f] = GatewaySimulation.outcome(scenario.faults().get(f));
            waitOfFault[f] = RetryWaits.waitNanos(scenario.faults().get(f), readTimeoutNanos);
        }
        long[] attempts = new long[n];
        long[] failed = new long[n];
        long[] counted = new long[n];
        long[] now = new long[1];
        NextUpstream next = config.nextUpstream();
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        long requests = 0;
        long clientErrors = 0;
        long noLive = 0;
        long duringFault = 0;
        long failedDuringFault = 0;
        RetryWaits waits = new RetryWaits();
        int[] triesLeft = new int[1];
        NginxDetector.Attempts source = (peer, attempt) -> {
            int fault = faults.onRequest(peer, now[0]);
            int outcome = fault == FaultInjector.PASS ? 200 : outcomeOfFault[fault];
            attempts[peer]++;
            if (Outcome.isFailure(outcome)) {
                failed[peer]++;
                waits.waited(waitOfFault[fault]);
            }
            if (next.peerState(outcome, triesLeft[0] - attempt) == NextUpstream.PeerState.FAILED && !config.single()) {
                counted[peer]++;
            }
            return outcome;
        };
        for (long t = arrivals.next(); t >= 0; t = arrivals.next()) {
            NginxDetector d = workers[(int) (requests % workers.length)];
            now[0] = t;
            boolean inFault = faults.moveTo(t);
            triesLeft[0] = d.initialTries();
            int status = d.request(t, source);
            requests++;
            if (status >= 500) {
                clientErrors++;
            }
            waits.answered(status >= 500);
            if (inFault) {
                duringFault++;
                if (status >= 500) {
                    failedDuringFault++;
                }
            }
            if (d.lastAttempts() == 0) {
                noLive++;
            }
        }
        for (NginxDetector d : workers) {
            d.runDue(scenario.durationNanos());
        }
        events.sort((a, b) -> Long.compare(a.timeNanos(), b.timeNanos()));
        return new NginxRunResult(
                requests,
                clientErrors,
                noLive,
                attempts,
                failed,
                counted,
                events,
                workers.length,
                hosts,
                duringFault,
                failedDuringFault,
                waits.requests(),
                waits.nanos());
    }

    /**
     * Replays an outcome trace through the upstream: each record is one attempt on its server at its time, as one
     * counting copy of the peers saw it (a worker's, or the zone's); its selection and its failure or success follow
     * {@link NginxDetector#record}. A record whose outcome is a failure counts as a client error. The scenario's traffic
     * and faults do not apply.
     */
    public static NginxRunResult replay(Scenario scenario, NginxUpstreamConfig config, Iterator<TraceRecord> records) {
        List<String> hosts = config.hosts();
        int n = hosts.size();
        List<NginxEvent> events = new ArrayList<>();
        NginxDetector d = new NginxDetector(config, 0, events::add);
        long[] attempts = new long[n];
        long[] failed = new long[n];
        long[] counted = new long[n];
        long requests = 0;
        long errors = 0;
        long last = 0;
        while (records.hasNext()) {
            TraceRecord r = records.next();
            int outcome = OutcomeTraces.outcome(r);
            if (outcome == OutcomeTraces.SKIP) {
                continue;
            }
            requests++;
            attempts[r.host()]++;
            if (Outcome.isFailure(outcome)) {
                failed[r.host()]++;
                errors++;
                if (config.nextUpstream().peerState(outcome, d.initialTries()) == NextUpstream.PeerState.FAILED
                        && !config.single()) {
                    counted[r.host()]++;
                }
            }
            // a return is at its own second, not at the next record's time
            for (long due = d.nextDueNanos(); due <= r.timeNanos(); due = d.nextDueNanos()) {
                d.runDue(due);
            }
            d.record(r.host(), outcome, r.timeNanos());
            last = r.timeNanos();
        }
        d.runDue(Math.max(last, scenario.durationNanos()));
        events.sort((a, b) -> Long.compare(a.timeNanos(), b.timeNanos()));
        return new NginxRunResult(requests, errors, 0, attempts, failed, counted, events, 1, hosts);
    }
}
