package dev.outlierlab.sim.haproxy;

import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.haproxy.HaproxyDetector;
import dev.outlierlab.engine.haproxy.HaproxyEvent;
import dev.outlierlab.engine.haproxy.HaproxyServer;
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
 * Runs a scenario's traffic through a HAProxy backend: each request goes round robin to the next server that is
 * UP (none UP: HAProxy's own 503), its outcome comes from the scenario's faults (else 200) and is observed by the
 * server's {@code observe} mode; active checks run on their timers, and a check fails while a fault of the server
 * fails health checks ({@code fails_health_check}: the health endpoint shares the fault) and passes otherwise.
 * A failed status is passed to the client; a failed connection is a 503, a timeout a 504. Zero latency,
 * deterministic.
 */
public final class HaproxySimulation {
    /** What a run produced. */
    public record Result(
            long requests,
            long clientErrors,
            long noServer,
            long[] attempts,
            List<HaproxyEvent> events,
            long trips,
            long checks,
            long requestsDuringFault,
            long errorsDuringFault) {
        /** A run with no fault windows counted (a replay). */
        public Result(
                long requests,
                long clientErrors,
                long noServer,
                long[] attempts,
                List<HaproxyEvent> events,
                long trips,
                long checks) {
            this(requests, clientErrors, noServer, attempts, events, trips, checks, 0, 0);
        }

        public long downs(int server) {
            return events.stream()
                    .filter(e -> e.endpoint() == server && e.down())
                    .count();
        }
    }

    private HaproxySimulation() {}

    public static Result run(Scenario scenario, List<HaproxyServer> servers) {
        List<String> hosts = scenario.cluster().hosts();
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        int[] outcomeOfFault = new int[scenario.faults().size()];
        for (int f = 0; f < outcomeOfFault.length; f++) {
            outcomeOfFault[f] = GatewaySimulation.outcome(scenario.faults().get(f));
        }
        List<HaproxyEvent> events = new ArrayList<>();
        HaproxyDetector d =
                new HaproxyDetector(servers, (server, t) -> faults.healthCheckFailure(server, t) == null, events::add);
        int n = servers.size();
        long[] attempts = new long[n];
        long requests = 0;
        long errors = 0;
        long noServer = 0;
        long duringFault = 0;
        long errorsDuringFault = 0;
        int robin = -1;
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        for (long t = arrivals.next(); t >= 0; t = arrivals.next()) {
            d.runDue(t);
            requests++;
            boolean inFault = faults.moveTo(t);
            if (inFault) {
                duringFault++;
            }
            int pick = -1;
            for (int k = 0; k < n && pick < 0; k++) {
                robin = (robin + 1) % n;
                if (!d.isEjected(robin)) {
                    pick = robin;
                }
            }
            if (pick < 0) {
                noServer++;
                errors++;
                if (inFault) {
                    errorsDuringFault++;
                }
                continue;
            }
            int fault = faults.onRequest(pick, t);
            int outcome = fault == FaultInjector.PASS ? 200 : outcomeOfFault[fault];
            attempts[pick]++;
            d.record(pick, outcome, t);
            if (Outcome.isFailure(outcome)) {
                errors++;
                if (inFault) {
                    errorsDuringFault++;
                }
            }
        }
        d.runDue(scenario.durationNanos());
        return new Result(
                requests, errors, noServer, attempts, events, d.trips(), d.checksRun(), duringFault, errorsDuringFault);
    }

    /**
     * Replays an outcome trace through the backend: each record is one response of its server at its time, observed
     * as {@code observe} says; the active checks run on their timers and pass (a trace does not say how the health
     * endpoint answered). A record whose outcome is a failure counts as a client error. The scenario's traffic and
     * faults do not apply.
     */
    public static Result replay(Scenario scenario, List<HaproxyServer> servers, Iterator<TraceRecord> records) {
        List<HaproxyEvent> events = new ArrayList<>();
        HaproxyDetector d = new HaproxyDetector(servers, (server, t) -> true, events::add);
        OutcomeTraces.Counts c =
                OutcomeTraces.replay(records, servers.size(), scenario.durationNanos(), d::runDue, d::record);
        return new Result(c.requests(), c.errors(), 0, c.attempts(), events, d.trips(), d.checksRun());
    }
}
