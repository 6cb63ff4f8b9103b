package dev.outlierlab.sim.caddy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.caddy.CaddyDetector;
import dev.outlierlab.engine.caddy.CaddyEvent;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
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
 * counts after {@code Transport.RoundTrip} returns; the client's answer is counted at the request's time); a failed round trip (refused, reset, timeout) is tried again on the
 * next selection while {@code lb_try_duration} or {@code lb_retries} allow (up to
 * {@code lb_try_duration / lb_try_interval + 1} tries; the lab's tries take no time), else it is the client's 502 or 504; a response with a bad status goes
 * to the client as it is; no upstream available is a 503. Deterministic.
 */
public final class CaddySimulation {
    /** The most slow responses a run holds in flight (each is counted when its headers arrive): bounds its memory. */
    static final int MAX_IN_FLIGHT = 1_000_000;

    /** What a run produced. */
    public record Result(
            long requests,
            long clientErrors,
            long noUpstreams,
            long[] attempts,
            List<CaddyEvent> events,
            long retries,
            long requestsDuringFault,
            long errorsDuringFault) {
        /** A run with no fault windows counted (a replay). */
        public Result(
                long requests,
                long clientErrors,
                long noUpstreams,
                long[] attempts,
                List<CaddyEvent> events,
                long retries) {
            this(requests, clientErrors, noUpstreams, attempts, events, retries, 0, 0);
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
        // tries within lb_try_duration when each takes no time: one every lb_try_interval, at most 1000
        int maxTries = config.retries() > 0
                ? config.retries() + 1
                : config.tryDurationNanos() > 0
                        ? (int) Math.min(1000, config.tryDurationNanos() / config.tryIntervalNanos() + 1)
                        : 1;
        long[] attempts = new long[hosts.size()];
        long requests = 0;
        long errors = 0;
        long none = 0;
        long retries = 0;
        long duringFault = 0;
        long errorsDuringFault = 0;
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        // a slow response is counted when its headers arrive, latency after the request was sent (Caddy counts after
        // Transport.RoundTrip returns): {time counted, order sent, upstream, outcome, latency}
        PriorityQueue<long[]> answering =
                new PriorityQueue<>(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        long sent = 0;
        for (long t = arrivals.next(); t >= 0; t = arrivals.next()) {
            countAnswered(d, answering, t);
            d.runDue(t);
            requests++;
            boolean inFault = faults.moveTo(t);
            int status = 0;
            for (int a = 0; a < maxTries; a++) {
                int pick = selection.select(d);
                if (pick < 0) {
                    status = 503;
                    none++;
                    break;
                }
                int fault = faults.onRequest(pick, t);
                int outcome = fault == FaultInjector.PASS ? 200 : outcomeOfFault[fault];
                attempts[pick]++;
                long latency = fault == FaultInjector.PASS ? 0 : latencyOfFault[fault];
                if (latency > 0) {
                    if (answering.size() >= MAX_IN_FLIGHT) {
                        throw new InvalidConfigException(
                                "faults[" + fault + "].latency",
                                Durations.format(latency),
                                "a latency that keeps at most " + MAX_IN_FLIGHT + " slow responses in flight at once"
                                        + " (this traffic keeps more: give a shorter latency or fewer requests a"
                                        + " second)");
                    }
                    answering.add(new long[] {t + latency, sent++, pick, outcome, latency});
                } else {
                    d.record(pick, outcome, 0, t);
                }
                if (!Outcome.isLocal(outcome)) {
                    status = outcome;
                    break;
                }
                status = outcome == Outcome.TIMEOUT ? 504 : 502;
                if (!retrying || a + 1 == maxTries) {
                    break;
                }
                retries++;
            }
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
        return new Result(requests, errors, none, attempts, events, retries, duringFault, errorsDuringFault);
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
