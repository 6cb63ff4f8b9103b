package dev.outlierlab.sim.caddy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.caddy.CaddyDetector;
import dev.outlierlab.engine.caddy.CaddyEvent;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import dev.outlierlab.sim.RetryWaits;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.proxies.OutcomeTraces;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceRecord;
import dev.outlierlab.sim.traffic.ArrivalProcess;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Runs a scenario's traffic through a Caddy {@code reverse_proxy}: each request selects an available upstream
 * by {@code lb_policy} (random from the scenario's seed), takes its outcome from the scenario's faults (else 200)
 * and counts it by the passive health checks, with the fault's {@code latency} as the time its response headers took
 * (Caddy's {@code unhealthy_latency}; a success takes none), counted when they arrive (as {@code Handler.reverseProxy}
 * counts after {@code Transport.RoundTrip} returns; the client's answer is counted at the request's time). A failed
 * round trip (refused, reset, a timeout) is tried again on the next selection while {@code LoadBalancing.tryAgain}
 * allows ({@code lb_try_duration} not yet passed since the request started, {@code lb_retries} left), else it is the
 * client's 502 or 504; a response with a bad status goes to the client as it is; no upstream available is a 503.
 *
 * <p>A try that does not answer ({@code result: timeout}) ends only at the transport's {@code
 * response_header_timeout}. Without one (Caddy's default) it holds its request until the client gives up: a failed
 * request for the client ({@link Result#heldRequests}), never counted by the passive checks, never tried again. With
 * one it fails that long after it was sent, is counted once then, and a retry follows {@code lb_try_interval} later,
 * both counted against {@code lb_try_duration}; a request answered after such retries is slow ({@link RetryWaits}:
 * the timeout plus the interval for each). The retries are chosen at the request's time; a refused or reset try
 * takes no time and its {@code lb_try_interval} is not counted as a wait. Deterministic.
 */
public final class CaddySimulation {
    /** The most slow responses a run holds in flight (each is counted when its headers arrive): bounds its memory. */
    static final int MAX_IN_FLIGHT = 1_000_000;

    /** The most tries of one request under {@code lb_try_duration} alone (one every {@code lb_try_interval}). */
    static final int MAX_TRIES = 1000;

    /** What a run produced. */
    public record Result(
            long requests,
            long clientErrors,
            long noUpstreams,
            long[] attempts,
            List<CaddyEvent> events,
            long retries,
            long requestsDuringFault,
            long errorsDuringFault,
            long slowRequests,
            long slowWaitNanos,
            long heldRequests) {
        /** A run with no fault windows counted (a replay). */
        public Result(
                long requests,
                long clientErrors,
                long noUpstreams,
                long[] attempts,
                List<CaddyEvent> events,
                long retries) {
            this(requests, clientErrors, noUpstreams, attempts, events, retries, 0, 0, 0, 0, 0);
        }

        public long ejections(int upstream) {
            return events.stream()
                    .filter(e -> e.endpoint() == upstream && e.eject())
                    .count();
        }
    }

    private CaddySimulation() {}

    public static Result run(Scenario scenario, CaddyPassiveConfig config) {
        List<String> hosts = scenario.cluster().hosts();
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        int[] outcomeOfFault = new int[scenario.faults().size()];
        long[] latencyOfFault = new long[outcomeOfFault.length];
        for (int f = 0; f < outcomeOfFault.length; f++) {
            outcomeOfFault[f] = GatewaySimulation.outcome(scenario.faults().get(f));
            latencyOfFault[f] = scenario.faults().get(f).latencyNanos();
        }
        List<CaddyEvent> events = new ArrayList<>();
        CaddyDetector d = new CaddyDetector(config, events::add);
        CaddySelection selection = new CaddySelection(config.policy(), new SeededRandom(scenario.seed()));
        boolean retrying = config.tryDurationNanos() > 0 || config.retries() > 0;
        long headerTimeout = config.responseHeaderTimeoutNanos();
        long[] attempts = new long[hosts.size()];
        long requests = 0;
        long errors = 0;
        long none = 0;
        long retries = 0;
        long held = 0;
        long duringFault = 0;
        long errorsDuringFault = 0;
        RetryWaits waits = new RetryWaits();
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        // a slow response is counted when its headers arrive, latency after the request was sent (Caddy counts after
        // Transport.RoundTrip returns), a timed-out try when response_header_timeout ends it:
        // {time counted, order sent, upstream, outcome, latency}
        PriorityQueue<long[]> answering =
                new PriorityQueue<>(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        long[] sent = new long[1];
        for (long t = arrivals.next(); t >= 0; t = arrivals.next()) {
            countAnswered(d, answering, t);
            d.runDue(t);
            requests++;
            boolean inFault = faults.moveTo(t);
            int status = 0;
            // since the request started, as tryAgain measures it against lb_try_duration: the timed-out tries and
            // every lb_try_interval slept (the lab's other tries take no time)
            long elapsed = 0;
            // what the request's caller waited for timed-out tries and the lb_try_interval after each (RetryWaits)
            long delay = 0;
            for (int a = 0; ; a++) {
                int pick = selection.select(d);
                if (pick < 0) {
                    status = 503;
                    none++;
                    break;
                }
                int fault = faults.onRequest(pick, t);
                int outcome = fault == FaultInjector.PASS ? 200 : outcomeOfFault[fault];
                attempts[pick]++;
                if (outcome == Outcome.TIMEOUT && headerTimeout == 0) {
                    // no response_header_timeout: the try holds its request until the client gives up; the round
                    // trip never returns, so proxyLoopIteration neither counts it nor tries again
                    held++;
                    status = 504;
                    break;
                }
                long latency = outcome == Outcome.TIMEOUT
                        ? headerTimeout
                        : fault == FaultInjector.PASS ? 0 : latencyOfFault[fault];
                if (latency > 0 || delay > 0) {
                    hold(answering, new long[] {t + delay + latency, sent[0]++, pick, outcome, latency}, fault);
                } else {
                    d.record(pick, outcome, 0, t);
                }
                if (!Outcome.isLocal(outcome)) {
                    status = outcome;
                    break;
                }
                status = outcome == Outcome.TIMEOUT ? 504 : 502;
                long ended = elapsed + (outcome == Outcome.TIMEOUT ? headerTimeout : 0);
                if (!tryAgain(config, retrying, a, ended)) {
                    break;
                }
                elapsed = ended + config.tryIntervalNanos();
                if (outcome == Outcome.TIMEOUT) {
                    delay += headerTimeout + config.tryIntervalNanos();
                    waits.waited(headerTimeout + config.tryIntervalNanos());
                }
                retries++;
            }
            waits.answered(status >= 500);
            if (status >= 500) {
                errors++;
            }
            if (inFault) {
                duringFault++;
                if (status >= 500) {
                    errorsDuringFault++;
                }
            }
        }
        countAnswered(d, answering, scenario.durationNanos());
        d.runDue(scenario.durationNanos());
        return new Result(
                requests,
                errors,
                none,
                attempts,
                events,
                retries,
                duringFault,
                errorsDuringFault,
                waits.requests(),
                waits.nanos(),
                held);
    }

    /**
     * {@code LoadBalancing.tryAgain} after failed try {@code a} (0 first) ended {@code endedNanos} after its request
     * started: not without {@code lb_try_duration} or {@code lb_retries}, nor once the try duration has passed, nor
     * once {@code lb_retries} retries were made; at most {@value #MAX_TRIES} tries under a try duration alone. Every
     * request of the lab is a GET, so any failed round trip may be tried again.
     */
    static boolean tryAgain(CaddyPassiveConfig config, boolean retrying, int a, long endedNanos) {
        if (!retrying) {
            return false;
        }
        if (config.tryDurationNanos() > 0 && endedNanos >= config.tryDurationNanos()) {
            return false;
        }
        if (config.retries() > 0) {
            return a < config.retries();
        }
        return a + 1 < MAX_TRIES;
    }

    /** Holds a response until it is counted, within {@link #MAX_IN_FLIGHT}. */
    private static void hold(PriorityQueue<long[]> answering, long[] response, int fault) {
        if (answering.size() >= MAX_IN_FLIGHT) {
            boolean timedOut = response[3] == Outcome.TIMEOUT;
            throw new InvalidConfigException(
                    timedOut ? "caddy.response_header_timeout" : "faults[" + fault + "].latency",
                    Durations.format(response[4]),
                    "a " + (timedOut ? "timeout" : "latency") + " that keeps at most " + MAX_IN_FLIGHT
                            + " slow responses in flight at once (this traffic keeps more: give a shorter one or"
                            + " fewer requests a second)");
        }
        answering.add(response);
    }

    /** Counts the slow responses whose headers have arrived by {@code now}, in the order they arrived. */
    private static void countAnswered(CaddyDetector d, PriorityQueue<long[]> answering, long now) {
        while (!answering.isEmpty() && answering.peek()[0] <= now) {
            long[] a = answering.poll();
            d.record((int) a[2], (int) a[3], a[4], a[0]);
        }
    }

    /**
     * Replays an outcome trace through the handler's passive checks: each record is one round trip of its upstream
     * at its time, counted as {@link CaddyDetector#record} counts it (no latency: {@code unhealthy_latency} does not
     * apply). A record whose outcome is a failure counts as a client error. The scenario's traffic and faults do not
     * apply.
     */
    public static Result replay(Scenario scenario, CaddyPassiveConfig config, Iterator<TraceRecord> records) {
        List<CaddyEvent> events = new ArrayList<>();
        CaddyDetector d = new CaddyDetector(config, events::add);
        OutcomeTraces.Counts c = OutcomeTraces.replay(
                records, config.upstreams().size(), scenario.durationNanos(), d::runDue, d::record);
        return new Result(c.requests(), c.errors(), 0, c.attempts(), events, 0);
    }
}
